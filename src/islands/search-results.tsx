import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'

import type {
  AgentSearchResult,
  SearchAgentsError,
  SearchAgentsResponse,
  SearchLocation,
} from '@shared/search-contract.ts'
import { agentUrl, zipUrl } from '@shared/urls.ts'
import { formatDays, formatPercent, formatPriceRange, initials } from '../lib/format'
import { callFunction } from '../lib/functions-client'
import { CompareBar, CompareToggle, useCompareSelection, type CompareSelection } from './compare-selection'
import {
  SEARCH_PAGE_SIZE,
  parseSearchParams,
  rankingBadge,
  resultCountText,
  searchTitle,
  serviceAreaSummary,
  type BadgeTone,
  type SearchParams,
} from '../lib/search-results'

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | {
      kind: 'results'
      params: SearchParams
      agents: AgentSearchResult[]
      total: number
      location: SearchLocation | null
      message?: string
      loadingMore: boolean
      moreError?: string
    }

/** One page of results; throws Error with the function's message (shown to the visitor as is). */
async function searchAgents(params: SearchParams, offset: number, signal?: AbortSignal): Promise<SearchAgentsResponse> {
  const response = await callFunction<SearchAgentsResponse | SearchAgentsError>(
    'search-agents',
    { query: params.q, type: params.type, limit: SEARCH_PAGE_SIZE, offset },
    signal,
  )
  if (!response.ok || !response.body || !('agents' in response.body)) {
    const message = response.body && 'error' in response.body ? response.body.error : `the search service answered ${response.status}`
    throw new Error(message)
  }
  return response.body
}

/**
 * The /search-results island: reads `?q=&type=` (missing type = agent), calls the search-agents function and shows
 * the result cards with paging (Load more), a six-card skeleton while loading, an error view and an empty view.
 * Without a query it shows the empty view and sends nothing.
 */
export function SearchResults() {
  // null while prerendering: the shell shows the skeleton until the browser knows the query
  const search = useSyncExternalStore(subscribeToNothing, readSearch, () => null)
  const params = useMemo(() => (search === null ? null : parseSearchParams(search)), [search])
  const [state, setState] = useState<State>({ kind: 'loading' })
  const compare = useCompareSelection()

  useEffect(() => {
    if (!params || params.q === '') return
    document.title = `${searchTitle(params)} | AgentInsight`
    const controller = new AbortController()
    searchAgents(params, 0, controller.signal)
      .then((page) =>
        setState({ kind: 'results', params, agents: page.agents, total: page.totalResults, location: page.location, message: page.message, loadingMore: false }),
      )
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) })
      })
    return () => controller.abort()
  }, [params])

  const loadMore = useCallback(async () => {
    if (state.kind !== 'results') return
    setState({ ...state, loadingMore: true, moreError: undefined })
    try {
      const page = await searchAgents(state.params, state.agents.length)
      setState({ ...state, agents: [...state.agents, ...page.agents], total: page.totalResults, loadingMore: false })
    } catch (error) {
      setState({ ...state, loadingMore: false, moreError: `Failed to load more agents: ${error instanceof Error ? error.message : String(error)}` })
    }
  }, [state])

  if (params?.q === '') return <EmptyView title="Search for an agent" detail="Enter an agent name, ZIP code or address to see matching agents." />
  if (state.kind === 'loading') return <Skeleton />
  if (state.kind === 'error') return <ErrorView message={state.message} />

  const { agents, total, location } = state
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight break-words">{searchTitle(state.params)}</h1>
      <p className="mt-2 text-slate-700" role="status">
        {resultCountText(total, location)}
      </p>
      {state.params.type === 'zipcode' && /^\d{5}$/.test(state.params.q) && agents.length > 0 && (
        <p className="mt-1 text-sm">
          <a href={zipUrl(state.params.q)} className="text-blue-700 underline">
            Top agents in {state.params.q} with the ZIP's market figures
          </a>
        </p>
      )}
      {agents.length === 0 ? (
        <EmptyView title="No agents found" detail={state.message ?? 'Try a different spelling, a nearby ZIP code or a full street address.'} heading="h2" />
      ) : (
        <>
          <ul className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label="Agents">
            {agents.map((agent) => (
              <li key={agent.id}>
                <AgentCard agent={agent} compare={compare} />
              </li>
            ))}
          </ul>
          <CompareBar selection={compare} />
          {state.moreError && (
            <p role="alert" className="mt-4 text-sm text-red-800">
              {state.moreError}
            </p>
          )}
          {agents.length < total && (
            <div className="mt-8 text-center">
              <button
                type="button"
                onClick={loadMore}
                disabled={state.loadingMore}
                aria-busy={state.loadingMore}
                className="rounded-md border border-slate-300 bg-white px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:cursor-wait disabled:opacity-70"
              >
                {state.loadingMore ? 'Loading…' : `Load more (${agents.length} of ${total} shown)`}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  )
}

// the query string never changes while the page is open (searching again loads a new page)
const subscribeToNothing = () => () => {}
const readSearch = () => window.location.search

const badgeClasses: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-900',
  blue: 'bg-blue-100 text-blue-900',
  gray: 'bg-slate-200 text-slate-800',
}

function AgentCard({ agent, compare }: { agent: AgentSearchResult; compare: CompareSelection }) {
  const badge = rankingBadge(agent.local_ranking, agent.total_agents_in_area)
  const areas = serviceAreaSummary(agent.service_areas)
  const priceRange = formatPriceRange(agent.price_range_min, agent.price_range_max)
  const headingId = `agent-${agent.id}`
  return (
    <article aria-labelledby={headingId} className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-start gap-3">
        {agent.photo_url ? (
          <img src={agent.photo_url} alt="" width={56} height={56} loading="lazy" className="h-14 w-14 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-blue-100 text-lg font-semibold text-blue-800">
            {initials(agent.name)}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="truncate text-lg font-semibold text-slate-900">
            {agent.name}
          </h2>
          {agent.brokerage && <p className="truncate text-sm text-slate-700">{agent.brokerage}</p>}
        </div>
        {badge && (
          <span data-testid="ranking-badge" data-tone={badge.tone} className={`shrink-0 rounded-full px-2.5 py-1 text-xs font-semibold ${badgeClasses[badge.tone]}`}>
            {badge.label}
          </span>
        )}
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        <div>
          <dt className="text-slate-600">Homes sold</dt>
          <dd className="font-semibold">{agent.total_sales}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Sale-to-list</dt>
          <dd className="font-semibold">{formatPercent(agent.average_sale_to_list_ratio)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Avg. days on market</dt>
          <dd className="font-semibold">{formatDays(agent.average_days_on_market)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Price range</dt>
          <dd className="font-semibold">{priceRange ?? '—'}</dd>
        </div>
        {agent.sales_in_area !== null && (
          <div className="col-span-2">
            <dt className="text-slate-600">Sales in this area</dt>
            <dd className="font-semibold">{agent.sales_in_area}</dd>
          </div>
        )}
      </dl>
      {areas.shown.length > 0 && (
        <div className="mt-3 text-sm">
          <p className="sr-only">Service areas</p>
          <ul className="flex flex-wrap gap-1.5" aria-label="Service areas">
            {areas.shown.map((area) => (
              <li key={area} className="rounded bg-slate-100 px-2 py-0.5 text-slate-800">
                {area}
              </li>
            ))}
            {areas.more > 0 && <li className="px-1 py-0.5 text-slate-700">+{areas.more} more</li>}
          </ul>
        </div>
      )}
      <CompareToggle selection={compare} id={agent.id} name={agent.name} />
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        <a
          href={agentUrl(agent.id)}
          aria-label={`View Profile of ${agent.name}`}
          className="flex-1 rounded-md bg-blue-700 px-3 py-2 text-center text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          View Profile
        </a>
        {agent.phone && (
          <a
            href={`tel:${agent.phone.replace(/[^+\d]/g, '')}`}
            aria-label={`Call ${agent.name}`}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Call
          </a>
        )}
        {agent.email && (
          <a
            href={`mailto:${agent.email}`}
            aria-label={`Email ${agent.name}`}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Email
          </a>
        )}
      </div>
    </article>
  )
}

function Skeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading agents…
      </p>
      <div className="h-9 w-2/3 max-w-md animate-pulse rounded bg-slate-200" />
      <div className="mt-3 h-5 w-40 animate-pulse rounded bg-slate-200" />
      <ul className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <li key={index} data-testid="agent-card-skeleton" className="h-64 animate-pulse rounded-lg border border-slate-200 bg-white p-5">
            <div className="flex gap-3">
              <div className="h-14 w-14 rounded-full bg-slate-200" />
              <div className="flex-1 space-y-2">
                <div className="h-4 w-3/4 rounded bg-slate-200" />
                <div className="h-3 w-1/2 rounded bg-slate-200" />
              </div>
            </div>
            <div className="mt-6 grid grid-cols-2 gap-3">
              {Array.from({ length: 4 }, (_, cell) => (
                <div key={cell} className="h-8 rounded bg-slate-100" />
              ))}
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}

function ErrorView({ message }: { message: string }) {
  return (
    <section className="mx-auto max-w-xl py-12 text-center" role="alert">
      <h1 className="text-2xl font-bold tracking-tight">Something went wrong</h1>
      <p className="mt-3 break-words text-slate-700">Failed to search agents: {message}</p>
      <a
        href="/search"
        className="mt-6 inline-block rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        Back to Search
      </a>
    </section>
  )
}

function EmptyView({ title, detail, heading = 'h1' }: { title: string; detail: string; heading?: 'h1' | 'h2' }) {
  const Heading = heading
  return (
    <section className="mx-auto max-w-xl py-12 text-center">
      <Heading className="text-2xl font-bold tracking-tight">{title}</Heading>
      <p className="mt-3 text-slate-700">{detail}</p>
      <a
        href="/search"
        className="mt-6 inline-block rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        New Search
      </a>
    </section>
  )
}
