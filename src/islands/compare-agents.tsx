import { useEffect, useMemo, useSyncExternalStore } from 'react'

import { fetchAgentProfile, type AgentProfile } from '../lib/agent-profile'
import { compareLeaders, parseCompareIds } from '../lib/compare'
import { formatCount, formatDate, formatDays, formatPercent, formatPriceRange, formatUsd } from '../lib/format'
import { SaleToListChart, metricsWindowText } from './agent-profile-view'
import { agentUrl, compareUrl, zipUrl } from '@shared/urls.ts'
import { compareSnapshot } from '~/lib/agent-lists'
import { LoadError, useLiveLoad } from './use-live-load'

/**
 * /compare?agents=id1,id2[,id3,id4]: the named agents side by side (live from the API, so any agent can be compared
 * and the URL is the whole state, shareable as is). Columns on wide screens, stacked cards at phone width. Opened
 * without `agents` (the tray's Compare, a bookmark), it shows the compare tray's agents and puts them in the URL.
 */
export function CompareAgents() {
  const search = useSyncExternalStore(subscribeToNothing, readSearch, () => null)
  const parsed = useMemo(() => (search === null ? null : parseCompareIds(search)), [search])
  useEffect(() => {
    if (parsed?.ok && !new URLSearchParams(window.location.search).has('agents'))
      history.replaceState(null, '', compareUrl(parsed.ids))
  }, [parsed])
  const { state, retry } = useLiveLoad(
    parsed?.ok ? parsed.ids.join(',') : null,
    async () => {
      const found = await Promise.all((parsed?.ok ? parsed.ids : []).map((id) => fetchAgentProfile(id)))
      const profiles = found.filter((profile): profile is AgentProfile => profile !== null)
      return { profiles, missing: found.length - profiles.length }
    },
    'Loading the agents to compare failed',
  )

  if (parsed && !parsed.ok)
    return (
      <Notice
        title="Nothing to compare yet"
        detail={`${parsed.message} Tick "Compare" on search results, agent profiles or ZIP and city pages.`}
      />
    )
  if (state.kind === 'loading') {
    return (
      <div aria-busy="true">
        <p className="sr-only" role="status">
          Loading agents…
        </p>
        <div className="grid animate-pulse gap-4 md:grid-cols-3" aria-hidden="true">
          {Array.from({ length: 3 }, (_, index) => (
            <div key={index} className="h-96 rounded-lg bg-slate-200" />
          ))}
        </div>
      </div>
    )
  }
  if (state.kind === 'error') {
    return (
      <LoadError
        title="Something went wrong"
        message="Failed to load the agents. Please try again."
        onRetry={retry}
        className="py-12"
      />
    )
  }
  const { profiles, missing } = state.value
  if (profiles.length === 0)
    return <Notice title="Agents not found" detail="None of these agents is listed any more." />
  const leaders = compareLeaders(profiles)
  const columns = profiles.length >= 4 ? 'md:grid-cols-4' : profiles.length === 3 ? 'md:grid-cols-3' : 'md:grid-cols-2'
  return (
    <div>
      {missing > 0 && (
        <p className="mb-4 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-950">
          {missing} of the linked agents {missing === 1 ? 'is' : 'are'} no longer listed.
        </p>
      )}
      <section aria-labelledby="leaders-title" className="mb-6 rounded-lg border border-blue-200 bg-blue-50 p-4">
        <h2 id="leaders-title" className="font-semibold text-blue-950">
          Who leads on what
        </h2>
        {leaders.length > 0 ? (
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-blue-950">
            {leaders.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-blue-950">No agent leads on any measure: their figures tie or are missing.</p>
        )}
      </section>
      <ul className={`grid gap-4 ${columns}`} aria-label="Agents compared">
        {profiles.map((profile) => (
          <CompareColumn key={profile.agent.id} profile={profile} />
        ))}
      </ul>
    </div>
  )
}

function CompareColumn({ profile }: { profile: AgentProfile }) {
  const { agent, benchmark } = profile
  const windowText = metricsWindowText(agent)
  const rows: [string, string, string][] = [
    [
      'Sale-to-list (average)',
      formatPercent(agent.average_sale_to_list_ratio),
      `n = ${agent.sale_to_list_sample_size}`,
    ],
    ['Sale-to-list (median)', formatPercent(agent.median_sale_to_list_ratio), `n = ${agent.sale_to_list_sample_size}`],
    ['Days on market (average)', formatDays(agent.average_days_on_market), `n = ${agent.days_on_market_sample_size}`],
    ['Days on market (median)', formatDays(agent.median_days_on_market), `n = ${agent.days_on_market_sample_size}`],
    ['Closed sales', formatCount(agent.total_sales), `n = ${agent.total_sales}`],
    [
      'Market share',
      formatPercent(agent.market_share),
      agent.total_agents_in_area ? `of ${agent.total_agents_in_area} agents` : '—',
    ],
    ['Price range', formatPriceRange(agent.price_range_min, agent.price_range_max) ?? '—', `n = ${agent.total_sales}`],
  ]
  return (
    <li className="min-w-0 rounded-lg border border-slate-200 bg-white p-4" aria-label={agent.name}>
      <h2 className="break-words text-lg font-semibold">
        <a href={agentUrl(agent.id)} className="text-blue-800 underline">
          {agent.name}
        </a>
      </h2>
      {agent.brokerage && <p className="text-sm text-slate-700">{agent.brokerage}</p>}
      <p className="mt-1 text-xs text-slate-600">Window: {windowText}</p>
      <dl className="mt-3 divide-y divide-slate-100 text-sm">
        {rows.map(([label, value, n]) => (
          <div key={label} className="flex items-baseline justify-between gap-2 py-1.5">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right">
              <span className="font-semibold">{value}</span> <span className="text-xs text-slate-500">{n}</span>
            </dd>
          </div>
        ))}
      </dl>
      <div className="mt-3 rounded-md bg-slate-50 p-3 text-sm">
        {benchmark ? (
          <>
            <p className="font-medium">
              <a className="text-blue-700 underline" href={zipUrl(benchmark.zip_code)}>
                ZIP {benchmark.zip_code}
              </a>{' '}
              market
            </p>
            <p className="text-slate-700">
              Median {formatUsd(benchmark.median_sale_price)} · sale-to-list{' '}
              {formatPercent(benchmark.avg_sale_to_list_percent)} · {formatDays(benchmark.median_dom)}
            </p>
            <p className="mt-1 text-xs text-slate-600">
              Month ending {formatDate(benchmark.period_end)}. {benchmark.attribution}
            </p>
          </>
        ) : (
          <p className="text-slate-700">No ZIP benchmark for this agent.</p>
        )}
      </div>
      <div className="mt-3">
        <SaleToListChart sales={profile.sales} benchmark={benchmark} />
      </div>
    </li>
  )
}

function Notice({ title, detail }: { title: string; detail: string }) {
  return (
    <section className="mx-auto max-w-xl py-12 text-center">
      <h2 className="text-2xl font-bold tracking-tight">{title}</h2>
      <p className="mt-3 text-slate-700">{detail}</p>
      <a
        href="/search"
        className="mt-6 inline-block rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800"
      >
        Search Agents
      </a>
    </section>
  )
}

const subscribeToNothing = () => () => {}
/** The page's query, or the compare tray's agents when the URL names none. */
const readSearch = () => {
  const search = window.location.search
  if (new URLSearchParams(search).has('agents')) return search
  const stored = compareSnapshot()
  return stored.length > 0 ? `?agents=${stored.map((entry) => entry.id).join(',')}` : search
}
