import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { DATA_CARD_CLASS, DataCards, DataTable } from '@/components/ui/data-table'
import { useIsMobile } from '@/hooks/use-media-query'
import { cn, elapsedText } from '@/lib/utils'
import { importsQueries } from '../api/imports-queries'

/** Import runs listed on the page. */
const HISTORY_LIMIT = 50

/** A run's status as the importer records it (import_runs.status), with its badge. */
const STATUS = {
  succeeded: { label: 'Succeeded', variant: 'success' },
  running: { label: 'Running', variant: 'info' },
  failed: { label: 'Failed', variant: 'danger' },
  rejected: { label: 'Rejected', variant: 'danger' },
  interrupted: { label: 'Interrupted', variant: 'warning' },
} as const

type ImportRun = Awaited<ReturnType<NonNullable<ReturnType<typeof importsQueries.runs>['queryFn']>>>[number]
type FeedState = Awaited<ReturnType<NonNullable<ReturnType<typeof importsQueries.feeds>['queryFn']>>>[number]

const RUN_COLUMNS = ['Run', 'Feed', 'File', 'Started', 'Duration', 'Rows', 'Status'].map((header) => ({ header }))
const FEED_COLUMNS = ['Feed', 'Resource', 'Last completed sync', 'Records', 'Changes up to', 'State'].map((header) => ({
  header,
}))

const when = (iso: string | null) => (iso ? format(new Date(iso), 'MMM d, yyyy HH:mm:ss') : '—')
const count = (n: number) => n.toLocaleString('en-US')

/** Seconds from start to finish as '12.3 s' / '4 min 5 s', or '—' while running. */
const runDuration = (run: Pick<ImportRun, 'started_at' | 'finished_at'>) => elapsedText(run.started_at, run.finished_at)

/** File size in bytes as '812 B', '4.2 KB', '3.7 MB' or '1.2 GB' (decimal units). */
function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit += 1
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

/** Where a run read its records: a file, or a RESO Web API feed (import_runs.origin). */
const originLabel = (run: Pick<ImportRun, 'origin'>) => (run.origin === 'reso_web_api' ? 'RESO Web API' : 'File')

function StatusBadge({ status }: { status: string }) {
  const shown = STATUS[status as keyof typeof STATUS] ?? { label: status, variant: 'default' as const }
  return <Badge variant={shown.variant}>{shown.label}</Badge>
}

/**
 * What a run read and did with it: read, then inserted / updated / unchanged, and duplicates, rows the mapping's skip
 * rules left out (public-record rows, say) and rejects when there are any.
 */
function RowCounts({ run }: { run: ImportRun }) {
  return (
    <span className="text-slate-700">
      {count(run.rows_read)} read: {count(run.rows_inserted)} new, {count(run.rows_updated)} updated,{' '}
      {count(run.rows_unchanged)} unchanged
      {run.rows_duplicate > 0 && <>, {count(run.rows_duplicate)} duplicates</>}
      {run.rows_skipped > 0 && <>, {count(run.rows_skipped)} skipped by the mapping</>}
      {run.rows_rejected > 0 && <span className="text-red-700">, {count(run.rows_rejected)} rejected</span>}
    </span>
  )
}

/** Why a run failed or was rejected, and where its rejects file is. */
function RunNotes({ run }: { run: ImportRun }) {
  if (!run.error && !run.rejects_file) return null
  return (
    <div className="mt-1 space-y-1 text-xs">
      {run.error && <p className="break-words text-red-700">{run.error}</p>}
      {run.rejects_file && (
        <p className="break-all text-slate-500">
          Rejects: <span className="font-mono">{run.rejects_file}</span>
        </p>
      )}
    </div>
  )
}

/** How a feed stands: its last error, or the records it rejected (asked for again by key on every run), or fine. */
function FeedStateText({ feed }: { feed: FeedState }) {
  if (feed.last_error) return <span className="break-words text-red-700">Stopped: {feed.last_error}</span>
  if (feed.rejected_keys.length > 0)
    return (
      <span className="text-amber-800">
        {count(feed.rejected_keys.length)} rejected {feed.rejected_keys.length === 1 ? 'record' : 'records'}, asked for
        again on every run
      </span>
    )
  return <span className="text-slate-600">No errors</span>
}

/**
 * /admin/imports: the data imports, newest first (`npm run import` of a file or a RESO Web API feed: feed, file, when,
 * how long, what it read and did, status, error and rejects file; a run is applied whole or not at all), and the RESO
 * Web API feeds' sync state. Read-only: imports run from the command line (scripts/lib/import/README.md).
 */
export function ImportsPage() {
  const runs = useQuery(importsQueries.runs(HISTORY_LIMIT))
  const feeds = useQuery(importsQueries.feeds())
  const isMobile = useIsMobile()
  const emptyRuns =
    runs.isSuccess && runs.data.length === 0
      ? 'No imports yet. npm run import loads a file or a RESO Web API feed.'
      : null
  const emptyFeeds = feeds.isSuccess && feeds.data.length === 0 ? 'No RESO Web API feed has been synced yet.' : null

  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">Data Imports</h1>
      <p className="mt-1 text-sm text-slate-500">
        Every import of listing and agent data: what it read, what it changed, and how it ended. A run is applied whole
        or not at all.
      </p>

      {runs.isError && <Alert className="mt-4">Could not load the imports: {runs.error.message}</Alert>}

      {!isMobile && (
        <DataTable className="mt-6" columns={RUN_COLUMNS} loading={runs.isPending} empty={emptyRuns}>
          {runs.data?.map((run) => (
            <tr key={run.id} data-import-run={run.id} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-3 font-mono text-xs">#{run.id}</td>
              <td className="px-4 py-3 text-slate-700">
                {run.source}
                <span className="block text-xs text-slate-500">
                  {[run.resource, originLabel(run)].filter(Boolean).join(' · ')}
                </span>
              </td>
              <td className="max-w-xs min-w-40 px-4 py-3 break-words text-slate-700">
                {run.file_name}
                {run.file_bytes !== null && (
                  <span className="block text-xs text-slate-500">{fileSize(run.file_bytes)}</span>
                )}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{when(run.started_at)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{runDuration(run)}</td>
              <td className="max-w-sm px-4 py-3">
                <RowCounts run={run} />
                <RunNotes run={run} />
              </td>
              <td className="px-4 py-3">
                <StatusBadge status={run.status} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}

      {isMobile && (
        <DataCards className="mt-6" label="Data imports" loading={runs.isPending} empty={emptyRuns}>
          {runs.data?.map((run) => (
            <li key={run.id} data-import-run={run.id} className={cn(DATA_CARD_CLASS, 'text-sm')}>
              <div className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs">
                  #{run.id} · {[run.source, run.resource, originLabel(run)].filter(Boolean).join(' · ')}
                </span>
                <StatusBadge status={run.status} />
              </div>
              <p className="mt-1 break-all text-slate-700">
                {run.file_name}
                {run.file_bytes !== null && ` (${fileSize(run.file_bytes)})`}
              </p>
              <p className="mt-1 text-xs text-slate-500">
                {when(run.started_at)} · {runDuration(run)}
              </p>
              <p className="mt-1">
                <RowCounts run={run} />
              </p>
              <RunNotes run={run} />
            </li>
          ))}
        </DataCards>
      )}

      <h2 className="mt-10 text-lg font-semibold">RESO Web API feeds</h2>
      {feeds.isError && <Alert className="mt-4">Could not load the feeds: {feeds.error.message}</Alert>}

      {!isMobile && (
        <DataTable className="mt-4" columns={FEED_COLUMNS} loading={feeds.isPending} empty={emptyFeeds}>
          {feeds.data?.map((feed) => (
            <tr key={`${feed.source}/${feed.resource}`} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-3 text-slate-700">{feed.source}</td>
              <td className="px-4 py-3 text-slate-700">{feed.resource}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{when(feed.last_completed_at)}</td>
              <td className="px-4 py-3 text-slate-600">{count(feed.last_run_records)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{when(feed.high_water)}</td>
              <td className="max-w-sm px-4 py-3">
                <FeedStateText feed={feed} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}

      {isMobile && (
        <DataCards className="mt-4" label="RESO Web API feeds" loading={feeds.isPending} empty={emptyFeeds}>
          {feeds.data?.map((feed) => (
            <li key={`${feed.source}/${feed.resource}`} className={cn(DATA_CARD_CLASS, 'text-sm')}>
              <p className="font-medium text-slate-800">
                {feed.source} · {feed.resource}
              </p>
              <p className="mt-1 text-xs text-slate-500">
                Last completed sync {when(feed.last_completed_at)} · {count(feed.last_run_records)} records
              </p>
              <p className="mt-1">
                <FeedStateText feed={feed} />
              </p>
            </li>
          ))}
        </DataCards>
      )}
    </section>
  )
}
