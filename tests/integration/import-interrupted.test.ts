/**
 * Losing Postgres in the middle of an import (issue "data integrity", cases 2 and 6): the importer (the real CLI)
 * prints one line and exits 1, the live figures are exactly what they were before the run, and the next run
 * completes and records the dead one as interrupted. Runs on its own throwaway cluster, since it kills it.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoData } from '../../scripts/lib/demo/generate.ts'
import { demoIdPrefix, seedDemo } from '../../scripts/lib/demo/seed.ts'
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../supabase/local/throwaway-postgres.ts'
import { rootDir } from '../support/test-stack.ts'

let db: ThrowawayPostgres
let dir: string

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** Every figure a visitor sees, per agent, plus the sales behind them. */
const liveFigures = () =>
  Promise.all([
    query(
      `select mls_id, name, total_sales, average_sale_to_list_ratio::text, median_days_on_market::text, price_range_max::text,
              primary_zip_code, local_ranking, total_agents_in_area, market_share::text, ranking_note, metrics_window_end::text
       from public.agents order by mls_id`,
    ),
    query(`select count(*)::int as n, sum(sale_price)::text as volume from public.properties`),
    query(`select count(*)::int as n from public.agent_zip_sales`),
  ])

/** SIGKILL to the postmaster and every backend: Postgres gone at once, as on an OOM kill of the container. */
function killPostgres(postmaster: number): void {
  const children = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(postmaster)
      } catch {
        return false
      }
    })
  process.kill(postmaster, 'SIGKILL')
  for (const pid of children) process.kill(Number(pid), 'SIGKILL')
}

/** `npm run import -- <file> --source demo`; `onStaged` runs when the importer says it is applying. */
function importCli(
  file: string,
  onStaged?: () => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(rootDir, 'node_modules/.bin/tsx'), ['scripts/import.ts', file, '--source', 'demo'], {
      cwd: rootDir,
      env: { ...process.env, DATABASE_URL: db.url },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (onStaged && /^Staged .*applying\.\.\.$/m.test(stdout)) {
        const hook = onStaged
        onStaged = undefined
        hook()
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // 'close', not 'exit': the last line on stderr can arrive after the exit (a loaded CI run read an empty stderr)
    child.once('close', (code) => resolve({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') }))
  })
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-interrupted-'))
  db = await startThrowawayPostgres()
  // the live data a visitor sees: 200 demo agents with 4,000 sales and their figures
  await seedDemo({
    databaseUrl: db.url,
    agents: 200,
    salesPerAgent: 20,
    seed: 'before',
    source: 'demo',
    outDir: path.join(dir, 'before'),
  })
}, 240_000)

afterAll(async () => {
  await db?.stop()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('an import that loses Postgres', () => {
  it('changes nothing, says so in one line, and the next run completes', async () => {
    const before = await liveFigures()
    expect(before[0]).toHaveLength(200)
    // 60,000 sales into a table of 4,000 is a bulk load: the importer drops the secondary indexes and foreign keys of
    // the sales and their sides, and makes them again in its transaction
    const indexes = () =>
      query<{ definition: string }>(
        `select tablename || ': ' || indexdef as definition from pg_indexes
          where schemaname = 'public' and tablename in ('properties', 'transaction_sides')
         union all
         select conrelid::regclass || ': ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
          where contype = 'f' and conrelid in ('public.properties'::regclass, 'public.transaction_sides'::regclass)
         order by 1`,
      )
    const indexesBefore = await indexes()
    expect(indexesBefore.length).toBeGreaterThan(10)
    expect(indexesBefore.filter((row) => row.definition.includes(' FOREIGN KEY ')).length).toBeGreaterThanOrEqual(3)
    // 60,000 more sales for the same agents: applying them changes every agent's figures
    const files = await generateDemoData({
      agents: 200,
      sales: 60_000,
      seed: 'before',
      idPrefix: demoIdPrefix('demo', 'before'),
      outDir: path.join(dir, 'more'),
    })

    const killed = await importCli(files.properties, () => killPostgres(db.pid()))
    expect(killed.code).toBe(1)
    expect(killed.stdout).toMatch(/^Staged 60,000 Property records in [\d.]+ s \(0 rejected\); applying\.\.\.$/m)
    expect(killed.stderr.trim()).toBe('lost the database connection after 60000 rows; nothing was changed')

    await db.restart()
    expect(await liveFigures()).toEqual(before)
    expect(await indexes()).toEqual(indexesBefore)
    expect(await query(`select status from public.import_runs order by id`)).toEqual([
      { status: 'succeeded' },
      { status: 'succeeded' },
      { status: 'running' },
    ])

    const again = await importCli(files.properties)
    expect(again.stderr).toBe('')
    expect(again.code).toBe(0)
    // the generator numbers ListingKeys from 1 for each run: the first 4,000 keys are the seeded sales, replaced
    expect(again.stdout).toMatch(/inserted {4}56000\n {2}updated {5}\d+\n/)
    const after = await liveFigures()
    expect(after[1]).toEqual([{ n: 60_000, volume: expect.any(String) }])
    expect(await indexes()).toEqual(indexesBefore)
    expect(after[0]).not.toEqual(before[0])
    expect(
      await query(`select status, rows_read, rows_inserted, error from public.import_runs order by id offset 2`),
    ).toEqual([
      {
        status: 'interrupted',
        rows_read: 0,
        rows_inserted: 0,
        error: 'the importer lost its database connection; nothing was applied',
      },
      { status: 'succeeded', rows_read: 60_000, rows_inserted: 56_000, error: null },
    ])
  }, 300_000)
})
