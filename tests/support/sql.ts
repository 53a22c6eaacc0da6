/**
 * Superuser SQL against the test database (TEST_DATABASE_URL, set by scripts/test.ts or the vitest global setup):
 * fixtures and assertions on stored rows, for integration and browser tests alike.
 */
import pg from 'pg'

/**
 * Runs one statement (or a `;`-separated script without parameters) on a fresh connection.
 * @returns the rows of the (last) result.
 * @throws Error when TEST_DATABASE_URL is not set, or Postgres' error (with its SQLSTATE `code`).
 */
export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const connectionString = process.env.TEST_DATABASE_URL
  if (!connectionString) throw new Error('TEST_DATABASE_URL is not set: run the tests through `npm test`')
  return sqlAt(connectionString, text, values)
}

/** `sql` against another database of the cluster (a test's own fresh database); server notices are ignored. */
export async function sqlAt<T extends pg.QueryResultRow = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  client.on('notice', () => {})
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}
