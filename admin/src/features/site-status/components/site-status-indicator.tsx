import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'

import {
  Dialog,
  DialogCloseFooter,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { cn } from '@/lib/utils'
import { Link } from '@tanstack/react-router'

import { useBuildExpectation } from '../api/live-post-watch'
import { siteStatusQueries } from '../api/site-status-queries'
import { deriveSiteStatus, siteStatusPollMs, type SiteBuildRow } from '../api/site-status'
import { SiteStatusLivePostNotices } from './site-status-live-post-notices'

/** 'hh:mm' in the admin's local time. */
const clock = (iso: string) => format(new Date(iso), 'HH:mm')

/**
 * The public site's state in the top bar, from public.site_builds only (never by requesting public pages): 'Live',
 * 'Rebuilding… (started hh:mm)', 'Build requested hh:mm' (production build hook) or 'Last build failed' (opens the
 * log tail). Right after this browser saves a public change it says Rebuilding until that build is done, polling
 * every second meanwhile. Also renders the "View live post" notices of posts published from this browser.
 */
export function SiteStatusIndicator() {
  const expectation = useBuildExpectation()
  const { data: rows, isError } = useQuery({
    ...siteStatusQueries.recentBuilds(),
    refetchInterval: (query) =>
      siteStatusPollMs(query.state.data ? deriveSiteStatus(query.state.data, expectation) : undefined),
  })
  const status = rows ? deriveSiteStatus(rows, expectation) : undefined

  let content = null
  if (isError && !status) {
    content = <Pill tone="muted">Site status unavailable</Pill>
  } else if (status?.kind === 'live') {
    content = (
      <Link to="/builds" aria-label="Site status: Live (open Builds)">
        <Pill tone="ok">Live</Pill>
      </Link>
    )
  } else if (status?.kind === 'rebuilding') {
    content = (
      <Link to="/builds" aria-label={`Site status: Rebuilding, started ${clock(status.since)} (open Builds)`}>
        <Pill tone="busy">Rebuilding… (started {clock(status.since)})</Pill>
      </Link>
    )
  } else if (status?.kind === 'requested') {
    content = <Pill tone="busy">Build requested {clock(status.requestedAt)}</Pill>
  } else if (status?.kind === 'failed') {
    content = <FailedBuild build={status.build} />
  }

  return (
    <>
      {/* a labelled region, not role="status": the toasts own the app's status live region */}
      <section aria-label="Site status" aria-live="polite" className="flex shrink-0 items-center">
        {content}
      </section>
      <SiteStatusLivePostNotices rows={rows ?? []} status={status} />
    </>
  )
}

const tones = {
  ok: 'bg-green-600',
  busy: 'animate-pulse bg-amber-500',
  error: 'bg-red-600',
  muted: 'bg-slate-400',
} as const

function Pill({ tone, children }: { tone: keyof typeof tones; children: React.ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 px-2.5 py-1 text-xs font-medium text-slate-700">
      <span aria-hidden="true" className={cn('h-2 w-2 rounded-full', tones[tone])} />
      {children}
    </span>
  )
}

function FailedBuild({ build }: { build: SiteBuildRow }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <button
          type="button"
          className="inline-flex items-center gap-1.5 rounded-full border border-red-300 px-2.5 py-1 text-xs font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          <span aria-hidden="true" className={cn('h-2 w-2 rounded-full', tones.error)} />
          Last build failed
        </button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogTitle>Last site build failed</DialogTitle>
        <DialogDescription>
          The last good version of the site is still live. Build asked for because: {build.trigger_reason}
          {build.finished_at ? ` (failed at ${clock(build.finished_at)})` : ''}.
        </DialogDescription>
        <pre
          aria-label="Build log tail"
          className="mt-4 max-h-80 overflow-auto rounded-md bg-slate-950 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100"
        >
          {build.log_tail || 'The builder recorded no output.'}
        </pre>
        <DialogCloseFooter />
      </DialogContent>
    </Dialog>
  )
}
