/**
 * Applies `supabase/migrations/*.sql` in filename order and records each in
 * `supabase_migrations.schema_migrations` (version, name, statements) the way the Supabase CLI does, then runs
 * `supabase/seed.sql` once on a fresh database and records its hash in `supabase_migrations.seed_files`.
 */
import { splitSqlStatements } from '@supabase/lite'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

export interface MigrationResult {
  applied: string[]
  seeded: boolean
}

const migrationFile = /^(\d+)_(.+)\.sql$/

/** Lists migration files as {version, name, file}, sorted by filename; rejects names the CLI would reject. */
export function listMigrations(migrationsDir: string): { version: string; name: string; file: string }[] {
  if (!fs.existsSync(migrationsDir)) return []
  return fs
    .readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const match = migrationFile.exec(file)
      if (!match) throw new Error(`Migration file name must be <timestamp>_<name>.sql: ${file}`)
      return { version: match[1]!, name: match[2]!, file: path.join(migrationsDir, file) }
    })
}

/**
 * Runs pending migrations, each in its own transaction; a failing migration names its file and stops the run
 * (earlier ones stay applied). Seeds when `seed` is true and the seed file was never applied.
 */
export async function migrate(
  databaseUrl: string,
  supabaseDir: string,
  { seed = true, log = (_: string) => {} }: { seed?: boolean; log?: (line: string) => void } = {},
): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl })
  client.on('notice', () => {})
  await client.connect()
  try {
    await client.query(`create schema if not exists supabase_migrations;
      create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
      create table if not exists supabase_migrations.seed_files (path text primary key, hash text not null);`)
    const done = new Set(
      (await client.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map(
        (row) => row.version,
      ),
    )
    const applied: string[] = []
    for (const migration of listMigrations(path.join(supabaseDir, 'migrations'))) {
      if (done.has(migration.version)) continue
      const sql = fs.readFileSync(migration.file, 'utf8')
      try {
        await client.query('begin')
        await client.query(sql)
        await client.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [migration.version, migration.name, splitSqlStatements(sql)],
        )
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw new Error(`Migration ${path.basename(migration.file)} failed: ${(error as Error).message}`, {
          cause: error,
        })
      }
      applied.push(path.basename(migration.file))
      log(`Applied migration ${path.basename(migration.file)}`)
    }
    let seeded = false
    const seedFile = path.join(supabaseDir, 'seed.sql')
    if (seed && fs.existsSync(seedFile)) {
      const already = await client.query('select 1 from supabase_migrations.seed_files where path = $1', ['seed.sql'])
      if (already.rowCount === 0) {
        const sql = fs.readFileSync(seedFile, 'utf8')
        try {
          await client.query('begin')
          await client.query(sql)
          await client.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
            'seed.sql',
            createHash('sha256').update(sql).digest('hex'),
          ])
          await client.query('commit')
        } catch (error) {
          await client.query('rollback')
          throw new Error(`Seeding supabase/seed.sql failed: ${(error as Error).message}`, { cause: error })
        }
        seeded = true
        log('Seeded supabase/seed.sql')
      }
    }
    return { applied, seeded }
  } finally {
    await client.end()
  }
}

/** Runs an SQL file as one script (bootstrap files of the stand-in). */
export async function runSqlFile(databaseUrl: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  client.on('notice', () => {})
  await client.connect()
  try {
    await client.query(fs.readFileSync(file, 'utf8'))
  } finally {
    await client.end()
  }
}
