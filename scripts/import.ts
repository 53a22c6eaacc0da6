/**
 * `npm run import -- <file> [--map mapping.json] [--source name] [--dry-run] [--window-months 24]`
 * `npm run import -- --zip-benchmarks supabase/data/redfin-zip-subset.csv`
 *
 * Imports RESO Property or Member records (CSV, JSON array or NDJSON) into public.properties / public.agents and
 * recomputes agent metrics; or loads Redfin ZIP benchmarks. Writes straight to Postgres with `pg`:
 * DATABASE_URL from the environment, else from `.env`, else the local stack (postgres on DB_PORT, 54322).
 * See scripts/lib/import/README.md.
 */
import { parse as parseDotenv } from 'dotenv';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
import { rootDir } from './lib/env.ts';
import { readMapping } from './lib/import/mapping.ts';
import { formatSummary, runImport } from './lib/import/run-import.ts';
import { loadZipBenchmarks } from './lib/import/zip-benchmarks.ts';

const usage = `Usage:
  npm run import -- <file.csv|file.json|file.ndjson> [--map mapping.json] [--source name] [--dry-run] [--window-months 24]
  npm run import -- --zip-benchmarks <redfin-zip.csv> [--dry-run]`;

const ArgsSchema = z.object({
  file: z.string().min(1, 'a file to import is required'),
  map: z.string().optional(),
  source: z.string().trim().min(1).max(100).optional(),
  dryRun: z.boolean(),
  zipBenchmarks: z.boolean(),
  windowMonths: z.coerce.number().int().min(1).max(600).default(24),
});

function databaseUrl(): string {
  const envFile = path.join(rootDir, '.env');
  const fromFile = fs.existsSync(envFile) ? parseDotenv(fs.readFileSync(envFile, 'utf8')) : {};
  const url = process.env.DATABASE_URL ?? fromFile.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${process.env.DB_PORT ?? fromFile.DB_PORT ?? 54322}/postgres`;
  const parsed = z.url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// URL' }).safeParse(url);
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  return parsed.data;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      map: { type: 'string' },
      source: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'zip-benchmarks': { type: 'string' },
      'window-months': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const parsed = ArgsSchema.safeParse({
    file: values['zip-benchmarks'] ?? positionals[0],
    map: values.map,
    source: values.source,
    dryRun: values['dry-run'],
    zipBenchmarks: values['zip-benchmarks'] !== undefined,
    windowMonths: values['window-months'],
  });
  if (!parsed.success) throw new Error(`${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n')}\n${usage}`);
  const args = parsed.data;
  if (!fs.existsSync(args.file)) throw new Error(`No such file: ${args.file}`);

  const started = performance.now();
  if (args.zipBenchmarks) {
    const client = args.dryRun ? null : new pg.Client({ connectionString: databaseUrl() });
    await client?.connect();
    try {
      const summary = await loadZipBenchmarks(client, args.file);
      console.log(`ZIP benchmarks${args.dryRun ? ' (dry run: nothing written)' : ''}: read ${summary.read}, rejected ${summary.rejected}${summary.rejectsFile ? ` (see ${summary.rejectsFile})` : ''}, inserted ${summary.inserted}, updated ${summary.updated}, unchanged ${summary.unchanged}`);
    } finally {
      await client?.end();
    }
  } else {
    const summary = await runImport({
      file: args.file,
      mapping: args.map ? readMapping(args.map) : undefined,
      source: args.source,
      dryRun: args.dryRun,
      databaseUrl: args.dryRun ? undefined : databaseUrl(),
      windowMonths: args.windowMonths,
    });
    console.log(formatSummary(summary, args.dryRun));
  }
  console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
