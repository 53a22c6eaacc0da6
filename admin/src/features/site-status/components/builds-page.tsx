import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DATA_CARD_CLASS, DataCards, DataTable } from '@/components/ui/data-table'
import { useToast } from '@/components/ui/toast'
import { useIsMobile } from '@/hooks/use-media-query'
import { cn, elapsedText } from '@/lib/utils'
import { useBuildExpectation } from '../api/live-post-watch'
import { deriveSiteStatus, siteStatusPollMs, type SiteBuildRow } from '../api/site-status'
import { useRebuildSiteMutation } from '../api/site-status-mutations'
import { siteStatusQueries } from '../api/site-status-queries'

/** Builds listed on the page. */
const HISTORY_LIMIT = 50

const RESULT = {
  succeeded: { label: 'Succeeded', variant: 'success' },
  failed: { label: 'Failed', variant: 'danger' },
  building: { label: 'Building', variant: 'info' },
  queued: { label: 'Queued', variant: 'warning' },
  requested: { label: 'Requested', variant: 'default' },
} as const

/** Seconds from start to finish as '12.3 s' / '1 min 5 s', or '—' while running or never started. */
export const buildDuration = (build: Pick<SiteBuildRow, 'started_at' | 'finished_at'>): string =>
  elapsedText(build.started_at, build.finished_at)

const BUILD_COLUMNS = ['Build', 'Trigger', 'Requested', 'Started', 'Duration', 'Result', 'Log'].map((header) => ({
  header,
}))

const when = (iso: string | null) => (iso ? format(new Date(iso), 'MMM d, HH:mm:ss') : '—')

function ResultBadge({ status }: { status: string }) {
  const result = RESULT[status as keyof typeof RESULT] ?? { label: status, variant: 'default' as const }
  return <Badge variant={result.variant}>{result.label}</Badge>
}

function LogTail({ build }: { build: SiteBuildRow }) {
  if (!build.log_tail) return <span className="text-slate-500">No output</span>
  return (
    <details>
      <summary className="cursor-pointer text-blue-700">Log tail</summary>
      <pre
        aria-label={`Log tail of build ${build.id}`}
        className="mt-2 max-h-64 overflow-auto rounded bg-slate-950 p-2 font-mono text-xs whitespace-pre-wrap text-slate-100"
      >
        {build.log_tail}
      </pre>
    </details>
  )
}

/**
 * /admin/builds: the history of site builds (trigger, requested and start time, duration, result, log tail), newest
 * first, and Rebuild now. Polls site_builds every second while a build runs, every 10 s otherwise.
 */
export function BuildsPage() {
  const expectation = useBuildExpectation()
  const builds = useQuery({
    ...siteStatusQueries.history(HISTORY_LIMIT),
    refetchInterval: (query) =>
      siteStatusPollMs(query.state.data ? deriveSiteStatus(query.state.data, expectation) : undefined),
  })
  const rebuild = useRebuildSiteMutation()
  const isMobile = useIsMobile()
  const { toast } = useToast()
  const empty =
    builds.isSuccess && builds.data.length === 0 ? 'No builds yet. Publishing a post or Rebuild now starts one.' : null

  return (
    <section>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Site Builds</h1>
          <p className="mt-1 text-sm text-slate-500">
            Every rebuild of the public site: why it ran, how long it took and how it ended.
          </p>
        </div>
        <Button
          disabled={rebuild.isPending}
          onClick={() =>
            rebuild.mutate(undefined, {
              onSuccess: () => toast({ title: 'Rebuild Requested', description: 'The site is being rebuilt.' }),
              onError: (error) =>
                toast({ title: 'Rebuild Not Requested', description: error.message, variant: 'error' }),
            })
          }
        >
          {rebuild.isPending ? 'Requesting...' : 'Rebuild now'}
        </Button>
      </div>

      {builds.isError && <Alert className="mt-4">Could not load builds: {builds.error.message}</Alert>}

      {!isMobile && (
        <DataTable className="mt-6" columns={BUILD_COLUMNS} loading={builds.isPending} empty={empty}>
          {builds.data?.map((build) => (
            <tr key={build.id} data-build-id={build.id} className="border-b border-slate-100 align-top last:border-0">
              <td className="px-4 py-3 font-mono text-xs">#{build.id}</td>
              <td className="max-w-xs px-4 py-3 break-words text-slate-700">{build.trigger_reason}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{when(build.requested_at)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{when(build.started_at)}</td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{buildDuration(build)}</td>
              <td className="px-4 py-3">
                <ResultBadge status={build.status} />
              </td>
              <td className="px-4 py-3">
                <LogTail build={build} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}

      {isMobile && (
        <DataCards className="mt-6" label="Site builds" loading={builds.isPending} empty={empty}>
          {builds.data?.map((build) => (
            <li key={build.id} className={cn(DATA_CARD_CLASS, 'text-sm')}>
              <div className="flex items-center justify-between gap-2">
                <span className="font-mono text-xs">#{build.id}</span>
                <ResultBadge status={build.status} />
              </div>
              <p className="mt-1 break-words text-slate-700">{build.trigger_reason}</p>
              <p className="mt-1 text-xs text-slate-500">
                {when(build.requested_at)} · {buildDuration(build)}
              </p>
              <div className="mt-2">
                <LogTail build={build} />
              </div>
            </li>
          ))}
        </DataCards>
      )}
    </section>
  )
}
