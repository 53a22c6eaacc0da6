import { Suspense, lazy, useState } from 'react'

import { useToast } from './use-toast'
import { absoluteUrl, agentUrl } from '@shared/urls.ts'
import { SHARE_FAILED, shareLink } from '../lib/share'

// The dialog (Radix Dialog, the form and its checks) loads on the first click, not with the page.
const loadReportRequestDialog = () => import('./report-request-dialog')
const ReportRequestDialog = lazy(() =>
  loadReportRequestDialog().then((module) => ({ default: module.ReportRequestDialog })),
)

/**
 * Share and Get Report of an agent page: the island of /agent/<id> (the figures are HTML; its Compare checkbox and
 * heart are plain HTML beside it). Share uses the Web Share API, else copies the canonical URL ("Link copied!"); when neither
 * works it says "Share failed" and asks the visitor to copy the URL by hand.
 */
export function AgentProfileActions({
  agentId,
  agentName,
  agentLocation,
}: {
  agentId: string
  agentName: string
  agentLocation: string | null
}) {
  const { toast, show } = useToast()

  async function share() {
    const outcome = await shareLink(
      `${agentName} | AgentInsight`,
      absoluteUrl(agentUrl(agentId), window.location.origin),
    )
    if (outcome === 'copied') show('Link copied!')
    else if (outcome === 'failed') show(SHARE_FAILED.title, 'error', SHARE_FAILED.description)
  }

  return (
    <>
      <button
        type="button"
        onClick={share}
        className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        Share
      </button>
      <GetReport agentId={agentId} agentName={agentName} agentLocation={agentLocation} />
      {toast}
    </>
  )
}

const getReportClass =
  'whitespace-nowrap rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700'

/** "Get Report": a plain button until first used, then the lazily loaded dialog, opened. */
function GetReport(props: { agentId: string; agentName: string; agentLocation: string | null }) {
  const [wanted, setWanted] = useState(false)
  if (!wanted) {
    return (
      <button
        type="button"
        onClick={() => setWanted(true)}
        onPointerEnter={() => void loadReportRequestDialog()}
        onFocus={() => void loadReportRequestDialog()}
        className={getReportClass}
      >
        Get Report
      </button>
    )
  }
  return (
    <Suspense
      fallback={
        <button type="button" disabled aria-busy="true" className={getReportClass}>
          Get Report
        </button>
      }
    >
      <ReportRequestDialog {...props} initiallyOpen />
    </Suspense>
  )
}
