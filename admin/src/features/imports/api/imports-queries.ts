import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'

/** Query keys of the data imports page; invalidate through these, never through hand-typed arrays. */
export const importsKeys = {
  all: ['imports'] as const,
  /** The newest import_runs rows. */
  runs: (limit: number) => [...importsKeys.all, 'runs', limit] as const,
  /** Every reso_sync_state row (one per RESO Web API feed and resource). */
  feeds: () => [...importsKeys.all, 'feeds'] as const,
}

const RUN_COLUMNS =
  'id, origin, source, resource, file_name, file_bytes, status, rows_read, rows_inserted, rows_updated, rows_unchanged, rows_rejected, rows_duplicate, rows_skipped, rejects_file, error, started_at, finished_at'

const FEED_COLUMNS = 'source, resource, high_water, last_completed_at, last_run_records, last_error, rejected_keys'

export const importsQueries = {
  /**
   * The newest `limit` import runs (files and RESO Web API runs: `npm run import`), newest first: status, counts and
   * error. Admins only, by RLS. Throws when the read fails.
   */
  runs: (limit: number) =>
    queryOptions({
      queryKey: importsKeys.runs(limit),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase
            .from('import_runs')
            .select(RUN_COLUMNS)
            .order('id', { ascending: false })
            .limit(limit)
            .abortSignal(signal),
        ),
    }),

  /**
   * The RESO Web API feeds' sync state (per feed and resource: the last completed sync, its records, the high-water
   * ModificationTimestamp, the last error and the keys rejected and asked for again), by feed. Admins only, by RLS. Throws when the read fails.
   */
  feeds: () =>
    queryOptions({
      queryKey: importsKeys.feeds(),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase.from('reso_sync_state').select(FEED_COLUMNS).order('source').order('resource').abortSignal(signal),
        ),
    }),
}
