import { Suspense, lazy, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react'

import { DEMO_DATA_NOTICE, agentIdFromPath, fetchAgentProfile, type AgentProfile, type AgentRow, type BenchmarkRow } from '../lib/agent-profile'
import { formatCount, formatDate, formatDays, formatPercent, formatUsd, initials, saleToListPercent } from '../lib/format'
import { useToast } from './use-toast'
import { absoluteUrl, agentUrl } from '@shared/urls.ts'

// The dialog (Radix Dialog, the form and its checks) loads on the first click, not with the page.
const loadReportRequestDialog = () => import('./report-request-dialog')
const ReportRequestDialog = lazy(() => loadReportRequestDialog().then((module) => ({ default: module.ReportRequestDialog })))

type State = { kind: 'loading' } | { kind: 'not-found' } | { kind: 'error' } | { kind: 'loaded'; profile: AgentProfile }

/**
 * The /agent/<id> island (one prebuilt shell for every agent): reads the id from the path, loads the agent, their
 * recent closed sales and their primary ZIP's Redfin benchmark, and shows header, metric cards with sample sizes and
 * window, market comparison (with the source's attribution), recent sales and a details sidebar. Loading, error and
 * not-found states; Share and Get Report actions.
 */
export function AgentProfilePage() {
  // null while prerendering; in the browser the path names the agent (the one shell serves every /agent/<id>)
  const pathname = useSyncExternalStore(subscribeToNothing, readPathname, () => null)
  const id = pathname === null ? null : agentIdFromPath(pathname)
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!id) return
    let cancelled = false
    fetchAgentProfile(id)
      .then((profile) => {
        if (cancelled) return
        if (!profile) return setState({ kind: 'not-found' })
        describePage(profile.agent)
        setState({ kind: 'loaded', profile })
      })
      .catch((error: unknown) => {
        console.error('Loading the agent profile failed', error)
        if (!cancelled) setState({ kind: 'error' })
      })
    return () => {
      cancelled = true
    }
  }, [id, attempt])

  function retry() {
    setState({ kind: 'loading' })
    setAttempt((value) => value + 1)
  }

  if (pathname !== null && !id) return <NotFound />
  if (state.kind === 'loading') return <ProfileSkeleton />
  if (state.kind === 'not-found') return <NotFound />
  if (state.kind === 'error') {
    return (
      <section className="mx-auto max-w-xl py-12 text-center" role="alert">
        <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
        <p className="mt-3 text-slate-700">Failed to load agent profile. Please try again.</p>
        <button
          type="button"
          onClick={retry}
          className="mt-6 rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          Try Again
        </button>
      </section>
    )
  }
  return <Profile profile={state.profile} />
}

// the path never changes while the page is open
const subscribeToNothing = () => () => {}
const readPathname = () => window.location.pathname

function NotFound() {
  return (
    <section className="mx-auto max-w-xl py-12 text-center">
      <h1 className="text-2xl font-bold tracking-tight">Agent not found</h1>
      <p className="mt-3 text-slate-700">We could not find this agent. The link may be mistyped, or the agent is no longer listed.</p>
      <a href="/search" className="mt-6 inline-block rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800">
        Search Agents
      </a>
    </section>
  )
}

/** Title, canonical URL and social URL of the shell describe this agent, not the generic /agent page. */
function describePage(agent: AgentRow) {
  const place = [agent.city, agent.state].filter(Boolean).join(', ')
  document.title = `${agent.name}${place ? ` in ${place}` : ''} - Agent Performance | AgentInsight`
  const url = absoluteUrl(agentUrl(agent.id), window.location.origin)
  document.querySelector('link[rel="canonical"]')?.setAttribute('href', url)
  document.querySelector('meta[property="og:url"]')?.setAttribute('content', url)
}

function Profile({ profile }: { profile: AgentProfile }) {
  const { agent, sales, benchmark, synthetic } = profile
  const { toast, show } = useToast()
  const place = [agent.city, agent.state].filter(Boolean).join(', ') || null
  const windowText =
    agent.metrics_window_start && agent.metrics_window_end
      ? `${formatDate(agent.metrics_window_start)} – ${formatDate(agent.metrics_window_end)}`
      : 'no closed sales yet'

  async function share() {
    const url = absoluteUrl(agentUrl(agent.id), window.location.origin)
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share({ title: `${agent.name} | AgentInsight`, url })
        return
      }
      await navigator.clipboard.writeText(url)
      show('Link copied!')
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return
      console.error('Sharing failed', error)
      show('Failed to share', 'error')
    }
  }

  return (
    <div>
      {synthetic && <p className="mb-6 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-950">{DEMO_DATA_NOTICE}</p>}
      <header className="flex flex-wrap items-start gap-5">
        {agent.photo_url ? (
          <img src={agent.photo_url} alt={`Photo of ${agent.name}`} width={96} height={96} className="h-24 w-24 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="flex h-24 w-24 items-center justify-center rounded-full bg-blue-100 text-3xl font-semibold text-blue-800">
            {initials(agent.name)}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold tracking-tight">{agent.name}</h1>
          {agent.brokerage && <p className="mt-1 text-lg text-slate-700">{agent.brokerage}</p>}
          <Rating rating={agent.rating} reviews={agent.review_count} />
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            onClick={share}
            className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Share
          </button>
          <GetReport agentId={agent.id} agentName={agent.name} agentLocation={place} />
        </div>
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_18rem]">
        <div className="min-w-0 space-y-8">
          <section aria-labelledby="metrics-title">
            <h2 id="metrics-title" className="text-xl font-semibold">
              Performance
            </h2>
            <p className="mt-1 text-sm text-slate-700">Closed sales as listing agent, {windowText}.</p>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2">
              <MetricCard
                label="Sale-to-list price"
                value={formatPercent(agent.average_sale_to_list_ratio)}
                detail={agent.median_sale_to_list_ratio !== null ? `Median ${formatPercent(agent.median_sale_to_list_ratio)}` : null}
                n={agent.sale_to_list_sample_size}
                windowText={windowText}
              />
              <MetricCard
                label="Days on market"
                value={formatDays(agent.average_days_on_market)}
                detail={agent.median_days_on_market !== null ? `Median ${formatDays(agent.median_days_on_market)}` : null}
                n={agent.days_on_market_sample_size}
                windowText={windowText}
              />
              <MetricCard label="Total sales" value={formatCount(agent.total_sales)} detail="Closed sales" n={agent.total_sales} windowText={windowText} />
              <MetricCard
                label="Market share"
                value={formatPercent(agent.market_share)}
                detail={
                  agent.local_ranking !== null && agent.total_agents_in_area !== null
                    ? `Ranked #${agent.local_ranking} of ${agent.total_agents_in_area} agents in ${agent.primary_zip_code}`
                    : (agent.ranking_note ?? 'Not ranked')
                }
                n={agent.total_agents_in_area ?? 0}
                nLabel="agents in the ZIP"
                windowText={windowText}
              />
            </ul>
          </section>

          {benchmark && <MarketComparison agent={agent} benchmark={benchmark} />}

          <section aria-labelledby="sales-title">
            <h2 id="sales-title" className="text-xl font-semibold">
              Recent sales
            </h2>
            {sales.length === 0 ? (
              <p className="mt-3 text-slate-700">No closed sales on record.</p>
            ) : (
              <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">The agent's {sales.length} most recent closed sales, newest first</caption>
                  <thead className="bg-slate-50 text-slate-700">
                    <tr>
                      <th scope="col" className="px-3 py-2 font-semibold">Address</th>
                      <th scope="col" className="px-3 py-2 font-semibold">Close date</th>
                      <th scope="col" className="px-3 py-2 text-right font-semibold">List price</th>
                      <th scope="col" className="px-3 py-2 text-right font-semibold">Sale price</th>
                      <th scope="col" className="px-3 py-2 text-right font-semibold">Sale-to-list</th>
                      <th scope="col" className="px-3 py-2 text-right font-semibold">Days on market</th>
                    </tr>
                  </thead>
                  <tbody>
                    {sales.map((sale) => {
                      const ratio = saleToListPercent(sale.list_price, sale.close_price)
                      return (
                        <tr key={sale.id} className="border-t border-slate-200">
                          <th scope="row" className="px-3 py-2 font-medium">
                            {sale.address}
                          </th>
                          <td className="whitespace-nowrap px-3 py-2">{formatDate(sale.close_date)}</td>
                          <td className="px-3 py-2 text-right">{formatUsd(sale.list_price)}</td>
                          <td className="px-3 py-2 text-right">{formatUsd(sale.close_price)}</td>
                          <td
                            data-tone={ratio === null ? 'none' : ratio >= 100 ? 'above' : 'below'}
                            className={`px-3 py-2 text-right font-semibold ${ratio === null ? '' : ratio >= 100 ? 'text-green-800' : 'text-red-800'}`}
                          >
                            {formatPercent(ratio)}
                          </td>
                          <td className="px-3 py-2 text-right">{sale.days_on_market ?? '—'}</td>
                        </tr>
                      )
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>

        <aside aria-labelledby="details-title" className="h-fit rounded-lg border border-slate-200 bg-white p-5">
          <h2 id="details-title" className="text-lg font-semibold">
            Agent details
          </h2>
          <dl className="mt-3 space-y-3 text-sm">
            <Detail term="License">{agent.license_number ?? 'Not on file'}</Detail>
            <Detail term="Experience">
              {agent.years_experience === null ? 'Not on file' : `${agent.years_experience} ${agent.years_experience === 1 ? 'year' : 'years'}`}
            </Detail>
            {place && <Detail term="Location">{place}</Detail>}
            <Detail term="Service areas">{agent.service_areas.length > 0 ? agent.service_areas.join(', ') : 'None yet'}</Detail>
            <Detail term="Contact">
              <span className="flex flex-col gap-1">
                {agent.phone && (
                  <a href={`tel:${agent.phone.replace(/[^+\d]/g, '')}`} className="text-blue-700 underline">
                    {agent.phone}
                  </a>
                )}
                {agent.email && (
                  <a href={`mailto:${agent.email}`} className="break-all text-blue-700 underline">
                    {agent.email}
                  </a>
                )}
                {!agent.phone && !agent.email && 'Not on file'}
              </span>
            </Detail>
          </dl>
        </aside>
      </div>
      {toast}
    </div>
  )
}

const getReportClass =
  'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700'

/** "Get Report": a plain button until first used, then the lazily loaded dialog, opened. */
function GetReport(props: { agentId: string; agentName: string; agentLocation: string | null }) {
  const [wanted, setWanted] = useState(false)
  if (!wanted) {
    return (
      <button type="button" onClick={() => setWanted(true)} onPointerEnter={() => void loadReportRequestDialog()} onFocus={() => void loadReportRequestDialog()} className={getReportClass}>
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

function Rating({ rating, reviews }: { rating: number | null; reviews: number }) {
  if (rating === null) return <p className="mt-2 text-sm text-slate-700">No rating yet</p>
  const filled = Math.floor(Number(rating))
  return (
    <p className="mt-2 flex items-center gap-2 text-sm text-slate-700">
      <span role="img" aria-label={`Rated ${Number(rating).toFixed(1)} out of 5`} className="flex">
        {Array.from({ length: 5 }, (_, index) => (
          <svg key={index} aria-hidden="true" viewBox="0 0 20 20" data-filled={index < filled} className={`h-5 w-5 ${index < filled ? 'fill-amber-500' : 'fill-slate-300'}`}>
            <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
          </svg>
        ))}
      </span>
      <span>
        {Number(rating).toFixed(1)} ({reviews} {reviews === 1 ? 'review' : 'reviews'})
      </span>
    </p>
  )
}

interface MetricCardProps {
  label: string
  value: string
  detail: string | null
  /** Sample size behind the figure. */
  n: number
  nLabel?: string
  windowText: string
}

function MetricCard({ label, value, detail, n, nLabel = 'closed sales', windowText }: MetricCardProps) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-5" aria-label={label}>
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900">{value}</p>
      {detail && <p className="mt-1 text-sm text-slate-700">{detail}</p>}
      <p className="mt-2 text-xs text-slate-600">
        n = {n} {nLabel} · {windowText}
      </p>
    </li>
  )
}

function MarketComparison({ agent, benchmark }: { agent: AgentRow; benchmark: BenchmarkRow }) {
  const area = [benchmark.city, benchmark.state].filter(Boolean).join(', ')
  const agentRange =
    agent.price_range_min !== null && agent.price_range_max !== null ? `${formatUsd(agent.price_range_min)} – ${formatUsd(agent.price_range_max)} (range)` : '—'
  return (
    <section aria-labelledby="market-title">
      <h2 id="market-title" className="text-xl font-semibold">
        Compared with the market in {benchmark.zip_code}
        {area ? ` (${area})` : ''}
      </h2>
      <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">The agent's figures next to the ZIP code's market figures</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">Measure</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">This agent</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">ZIP {benchmark.zip_code}</th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 font-medium">Sale price</th>
              <td className="px-3 py-2 text-right">{agentRange}</td>
              <td className="px-3 py-2 text-right">{formatUsd(benchmark.median_sale_price)} (median)</td>
            </tr>
            <tr className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 font-medium">Average sale-to-list</th>
              <td className="px-3 py-2 text-right">{formatPercent(agent.average_sale_to_list_ratio)}</td>
              <td className="px-3 py-2 text-right">{formatPercent(benchmark.avg_sale_to_list_percent)}</td>
            </tr>
            <tr className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 font-medium">Median days on market</th>
              <td className="px-3 py-2 text-right">{formatDays(agent.median_days_on_market)}</td>
              <td className="px-3 py-2 text-right">{formatDays(benchmark.median_dom)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-slate-600">
        Market figures for the month ending {formatDate(benchmark.period_end)}
        {benchmark.homes_sold !== null ? `, ${benchmark.homes_sold} homes sold` : ''}. {benchmark.attribution}
      </p>
    </section>
  )
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  )
}

function ProfileSkeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading agent profile…
      </p>
      <div aria-hidden="true" className="animate-pulse">
        <div className="flex gap-5">
          <div className="h-24 w-24 rounded-full bg-slate-200" />
          <div className="flex-1 space-y-3 pt-2">
            <div className="h-8 w-64 max-w-full rounded bg-slate-200" />
            <div className="h-5 w-48 max-w-full rounded bg-slate-200" />
          </div>
        </div>
        <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:w-2/3">
          {Array.from({ length: 4 }, (_, index) => (
            <div key={index} className="h-32 rounded-lg bg-slate-200" />
          ))}
        </div>
      </div>
    </div>
  )
}
