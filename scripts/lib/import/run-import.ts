/**
 * One import: read a RESO Property or Member file (optionally through a mapping), validate each record, write the
 * rejects to `<file>.rejects.csv`, upsert the rest in batches, then recompute agent metrics.
 */
import cliProgress from 'cli-progress';
import { stringify } from 'csv-stringify/sync';
import fs from 'node:fs';
import pg from 'pg';
import { applyMapping, type Mapping } from './mapping.ts';
import { readRecords } from './read-file.ts';
import { detectResource, toMemberRow, toPropertyRow, type MemberRow, type PropertyRow } from './records.ts';
import { upsertListingAgents, upsertMembers, upsertProperties } from './upsert.ts';

export interface ImportOptions {
  file: string;
  mapping?: Mapping;
  /** Validate and count only; nothing is written to the database (the rejects file still is). */
  dryRun?: boolean;
  databaseUrl?: string;
  /** properties.source when there is no mapping; default 'reso'. */
  source?: string;
  batchSize?: number;
  /** Show a progress bar (default: when stderr is a terminal and the file is over 5 MB). */
  progress?: boolean;
  /** Months of closed sales behind the agent metrics (refresh_agent_metrics). */
  windowMonths?: number;
  /** Skip refresh_agent_metrics() (e.g. when several files are imported in a row). */
  skipMetrics?: boolean;
}

export interface ImportSummary {
  resource: 'Property' | 'Member';
  read: number;
  rejected: number;
  /** Valid records whose key appeared earlier in the same file; the later one wins. */
  duplicates: number;
  inserted: number;
  updated: number;
  unchanged: number;
  agentsInserted: number;
  agentsUpdated: number;
  rejectsFile: string | null;
  metrics: { windowStart: string | null; windowEnd: string | null; agentsUpdated: number } | null;
}

/** `<file>.rejects.csv`: where the rejected records of `file` go. */
export const rejectsPath = (file: string) => `${file}.rejects.csv`;

/**
 * Runs an import. @throws Error when the file's resource cannot be told, a file cannot be parsed, or the database
 * refuses a batch (earlier batches stay written: a re-run picks up where it failed, since writes are idempotent).
 */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 5000;
  const source = options.mapping?.source ?? options.source ?? 'reso';
  if (!options.dryRun && !options.databaseUrl) throw new Error('databaseUrl is required unless dryRun is set');

  const summary: ImportSummary = {
    resource: options.mapping?.resource ?? 'Property',
    read: 0, rejected: 0, duplicates: 0, inserted: 0, updated: 0, unchanged: 0, agentsInserted: 0, agentsUpdated: 0,
    rejectsFile: null, metrics: null,
  };
  const rejectsFile = rejectsPath(options.file);
  fs.rmSync(rejectsFile, { force: true });
  const rejects: string[][] = [];
  let rejectColumns: string[] | null = null;

  const size = fs.statSync(options.file).size;
  const showProgress = options.progress ?? (process.stderr.isTTY && size > 5_000_000);
  const bar = showProgress
    ? new cliProgress.SingleBar({ format: 'import [{bar}] {percentage}% | {records} records | {eta_formatted} left', stream: process.stderr }, cliProgress.Presets.shades_classic)
    : null;
  bar?.start(size, 0, { records: 0 });

  const client = options.dryRun ? null : new pg.Client({ connectionString: options.databaseUrl });
  await client?.connect();
  const seen = new Set<string>();
  let batch = new Map<string, PropertyRow | MemberRow>();
  let resource: 'Property' | 'Member' | undefined = options.mapping?.resource;

  // one batch is written while the next one is parsed and validated; at most one write is in flight
  let pending: Promise<void> = Promise.resolve();
  const flush = async () => {
    await pending;
    if (batch.size === 0) return;
    const rows = [...batch.values()];
    batch = new Map();
    pending = write(rows);
    // the rejection is re-thrown by the next `await pending`; this only stops Node reporting it as unhandled
    pending.catch(() => {});
  };
  const write = async (rows: Array<PropertyRow | MemberRow>) => {
    if (!client) return;
    if (resource === 'Member') {
      const written = await upsertMembers(client, rows as MemberRow[]);
      summary.agentsInserted += written.inserted;
      summary.agentsUpdated += written.updated;
      summary.inserted += written.inserted;
      summary.updated += written.updated;
      return;
    }
    const agents = await upsertListingAgents(client, rows as PropertyRow[]);
    summary.agentsInserted += agents.inserted;
    summary.agentsUpdated += agents.updated;
    const written = await upsertProperties(client, rows as PropertyRow[]);
    summary.inserted += written.inserted;
    summary.updated += written.updated;
  };

  try {
    for await (const { line, record: raw } of readRecords(options.file, (bytes) => bar?.update(bytes, { records: summary.read }))) {
      summary.read += 1;
      const record = options.mapping ? applyMapping(raw, options.mapping) : raw;
      resource ??= detectResource(record);
      if (!resource) {
        throw new Error(`${options.file}: cannot tell the RESO resource: the first record has neither ListingKey (Property) nor MemberMlsId (Member). Use --map to name the columns.`);
      }
      const result = resource === 'Member' ? toMemberRow(record) : toPropertyRow(record, source);
      if (!result.ok) {
        summary.rejected += 1;
        rejectColumns ??= Object.keys(raw);
        rejects.push([String(line), result.reason, ...rejectColumns.map((column) => (raw[column] == null ? '' : String(raw[column])))]);
        continue;
      }
      const key = 'mls_id' in result.row ? result.row.mls_id : result.row.source_record_id;
      if (seen.has(key)) summary.duplicates += 1;
      else seen.add(key);
      batch.set(key, result.row);
      if (batch.size >= batchSize) await flush();
    }
    await flush();
    await pending;
    summary.resource = resource ?? summary.resource;
    summary.unchanged = Math.max(0, seen.size - summary.inserted - summary.updated);

    if (client && !options.skipMetrics) {
      const { rows } = await client.query<{ metrics_window_start: string | null; metrics_window_end: string | null; agents_updated: number }>(
        `select metrics_window_start::text, metrics_window_end::text, agents_updated from public.refresh_agent_metrics($1)`,
        [options.windowMonths ?? 24],
      );
      summary.metrics = { windowStart: rows[0]!.metrics_window_start, windowEnd: rows[0]!.metrics_window_end, agentsUpdated: rows[0]!.agents_updated };
    }
  } finally {
    bar?.stop();
    await pending.catch(() => {});
    await client?.end();
    if (rejects.length > 0) {
      fs.writeFileSync(rejectsFile, stringify([['line', 'reason', ...(rejectColumns ?? [])], ...rejects]));
      summary.rejectsFile = rejectsFile;
    }
  }
  return summary;
}

/** The summary as the CLI prints it. */
export function formatSummary(summary: ImportSummary, dryRun = false): string {
  const lines = [
    `${dryRun ? 'Dry run: nothing written. ' : ''}${summary.resource} records`,
    `  read        ${summary.read}`,
    `  rejected    ${summary.rejected}${summary.rejectsFile ? ` (see ${summary.rejectsFile})` : ''}`,
    `  duplicates  ${summary.duplicates} (same key again in the file; merged, last one wins)`,
  ];
  if (!dryRun) {
    lines.push(`  inserted    ${summary.inserted}`, `  updated     ${summary.updated}`, `  unchanged   ${summary.unchanged}`);
    if (summary.resource === 'Property') lines.push(`  agents      ${summary.agentsInserted} created, ${summary.agentsUpdated} updated`);
  }
  if (summary.metrics) {
    lines.push(`Agent metrics refreshed for ${summary.metrics.windowStart ?? '-'} to ${summary.metrics.windowEnd ?? '-'}: ${summary.metrics.agentsUpdated} agents changed`);
  }
  return lines.join('\n');
}
