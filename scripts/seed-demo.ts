/**
 * `npm run seed:demo -- [--agents 2000] [--sales-per-agent 20] [--seed agent-insight-demo] [--out .data/demo]`
 *
 * Generates fictional agents (RESO Member) and closed sales (RESO Property) calibrated per ZIP on
 * supabase/data/redfin-zip-subset.csv, writes them under .data/demo/, imports them through the regular importer
 * (source 'demo') and refreshes the agent metrics; loads the Redfin ZIP benchmarks first when that table is empty. Same seed, same data; re-running changes nothing.
 * Ratings, review counts, years of experience and bios are SYNTHETIC (see scripts/lib/demo/generate.ts).
 * Database: DATABASE_URL, else `.env`, else the local stack (`npm start`).
 */
import { parseArgs } from 'node:util'
import { z } from 'zod'
import pg from 'pg'
import { ensureZipBenchmarks, seedDemo } from './lib/demo/seed.ts'
import { resolveDatabaseUrl } from './lib/import/database-url.ts'

const usage =
  'Usage: npm run seed:demo -- [--agents 2000] [--sales-per-agent 20] [--seed agent-insight-demo] [--out .data/demo] [--source demo]'

const ArgsSchema = z.object({
  agents: z.coerce.number().int().min(1).max(1_000_000).default(2000),
  salesPerAgent: z.coerce.number().min(0).max(1000).default(20),
  seed: z.string().min(1).default('agent-insight-demo'),
  out: z.string().min(1).optional(),
  source: z.string().trim().min(1).max(100).default('demo'),
})

async function main() {
  const { values } = parseArgs({
    options: {
      agents: { type: 'string' },
      'sales-per-agent': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      source: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) {
    console.log(usage)
    return
  }
  const parsed = ArgsSchema.safeParse({
    agents: values.agents,
    salesPerAgent: values['sales-per-agent'],
    seed: values.seed,
    out: values.out,
    source: values.source,
  })
  if (!parsed.success)
    throw new Error(
      `${parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n')}\n${usage}`,
    )
  const args = parsed.data
  const databaseUrl = resolveDatabaseUrl()
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await ensureZipBenchmarks(client, (line) => console.log(line))
  } finally {
    await client.end()
  }
  const result = await seedDemo({
    databaseUrl,
    agents: args.agents,
    sales: Math.round(args.agents * args.salesPerAgent),
    seed: args.seed,
    outDir: args.out,
    source: args.source,
    log: (line) => console.log(line),
  })
  const t = result.timings
  console.log(
    `Done in ${t.total} s (generate ${t.generate} s, members ${t.members} s, properties ${t.properties} s, profiles ${t.profiles} s, metrics ${t.metrics} s).`,
  )
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
