/**
 * public.import_runs bookkeeping for file imports and RESO Web API runs:
 * a run row is inserted as 'running' in its own autocommit statement before any data is touched, and finished with
 * the counts either inside the import's transaction (succeeded: it commits with the data) or after its rollback
 * (failed / rejected). Rows left 'running' by a connection that died are marked 'interrupted' by the next run.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import type pg from 'pg'

export type ImportRunStatus = 'running' | 'succeeded' | 'failed' | 'rejected' | 'interrupted'

export interface ImportRunCounts {
  resource: 'Property' | 'Member' | null
  read: number
  /** Records a mapping's skip rule left out (0 for Web API runs). */
  skipped: number
  inserted: number
  updated: number
  unchanged: number
  rejected: number
  duplicates: number
  rejectsFile: string | null
}

/** SHA-256 of a file's bytes, hex. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/**
 * Marks runs left 'running' by a backend that no longer exists as 'interrupted', then inserts this run.
 * `fileName` is the file as given, or the Web API resource URL (then `sha256` and `bytes` are null and `origin` is
 * 'reso_web_api'). Returns the new run id. Autocommit: call outside the import transaction.
 */
export async function startImportRun(
  client: pg.ClientBase,
  run: {
    source: string
    fileName: string
    sha256: string | null
    bytes: number | null
    origin?: 'file' | 'reso_web_api'
  },
): Promise<number> {
  await client.query(
    `update public.import_runs r
     set status = 'interrupted', finished_at = now(),
         error = coalesce(r.error, 'the importer lost its database connection; nothing was applied')
     where r.status = 'running'
       and not exists (select 1 from pg_stat_activity a where a.pid = r.backend_pid)`,
  )
  const { rows } = await client.query<{ id: string }>(
    `insert into public.import_runs (source, file_name, file_sha256, file_bytes, origin, backend_pid)
     values ($1, $2, $3, $4, $5, pg_backend_pid()) returning id`,
    [run.source, run.fileName.slice(0, 1000), run.sha256, run.bytes, run.origin ?? 'file'],
  )
  return Number(rows[0]!.id)
}

/** Sets a run's final status, counts and error (one line, at most 2,000 characters). */
export async function finishImportRun(
  client: pg.ClientBase,
  id: number,
  status: Exclude<ImportRunStatus, 'running'>,
  counts: ImportRunCounts,
  error: string | null = null,
): Promise<void> {
  await client.query(
    `update public.import_runs set status = $2, resource = $3, rows_read = $4, rows_inserted = $5, rows_updated = $6,
       rows_unchanged = $7, rows_rejected = $8, rows_duplicate = $9, rejects_file = $10, error = $11, rows_skipped = $12,
       finished_at = now()
     where id = $1`,
    [
      id,
      status,
      counts.resource,
      counts.read,
      counts.inserted,
      counts.updated,
      counts.unchanged,
      counts.rejected,
      counts.duplicates,
      counts.rejectsFile?.slice(0, 1000) ?? null,
      error ? error.replace(/\s+/g, ' ').slice(0, 2000) : null,
      counts.skipped,
    ],
  )
}
