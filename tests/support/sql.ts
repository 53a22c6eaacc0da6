/**
 * Superuser SQL against the test database (TEST_DATABASE_URL, set by scripts/test.ts or the vitest global setup):
 * fixtures and assertions on stored rows, for integration and browser tests alike.
 */
import pg from 'pg'

/**
 * Runs one statement (or a `;`-separated script without parameters) on a fresh connection.
 * @returns the rows of the (last) result.
 * A statement Postgres aborts as a deadlock (40P01) is run again, twice at most.
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
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: databaseUrl })
    client.on('notice', () => {})
    await client.connect()
    try {
      return (await client.query<T>(text, values)).rows
    } catch (error) {
      // Test files run side by side, and two bulk statements (say two files' clean-ups deleting their agents) can
      // take the page-version rows their triggers update in opposite orders. Postgres then aborts one of them with
      // 40P01 and, as its manual advises, the statement is simply run again: it changed nothing.
      if ((error as { code?: string }).code !== '40P01' || attempt >= 3) throw error
    } finally {
      await client.end()
    }
  }
}
