import { Mail, Phone, TrendingUp } from 'lucide-react'
import { startTransition, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'

import type {
  AgentSearchResult,
  SearchAgentsError,
  SearchAgentsResponse,
  SearchLocation,
} from '@shared/search-contract.ts'
import { agentUrl, zipUrl } from '@shared/urls.ts'
import { formatDays, formatPercent, formatPriceRange, initials } from '~/lib/format'
import { callFunction } from '~/lib/functions-client'
import { CompareCheckbox, SaveAgentHeart } from './agent-list-buttons'
import {
  FUNCTION_FAILED_MESSAGE,
  NO_DATA_MESSAGE,
  SEARCH_PAGE_SIZE,
  noResultsText,
  parseSearchParams,
  rankingBadge,
  resultCountText,
  searchTitle,
  serviceAreaSummary,
  type BadgeTone,
  type SearchParams,
} from '~/lib/search-results'
import { HeroSearch } from './hero-search'

type State =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  /** The function refused the query (HTTP 400): a correctable message shown under the prefilled search box. */
  | { kind: 'invalid'; message: string }
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

/** The search function refused the request (HTTP 400); `message` names what to correct. */
class InvalidSearchError extends Error {}

/**
 * One page of results.
 * @throws InvalidSearchError with the function's message for a 400; Error with the function's message (or 'Search
 * function failed') for any other error status, and 'No data returned from search function' for a 2xx without
 * data.
 */
async function searchAgents(params: SearchParams, offset: number, signal?: AbortSignal): Promise<SearchAgentsResponse> {
  const response = await callFunction<SearchAgentsResponse | SearchAgentsError>(
    'search-agents',
    { query: params.q, type: params.type, limit: SEARCH_PAGE_SIZE, offset },
    signal,
  )
  const body = response.body
  if (!response.ok) {
    const message = body && 'error' in body && body.error ? body.error : FUNCTION_FAILED_MESSAGE
    throw response.status === 400 ? new InvalidSearchError(message) : new Error(message)
  }
  if (!body || !('agents' in body)) throw new Error(NO_DATA_MESSAGE)
  return body
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

  useEffect(() => {
    if (!params || params.q === '') return
    document.title = `${searchTitle(params)} | AgentInsight`
    const controller = new AbortController()
    searchAgents(params, 0, controller.signal)
      .then((page) =>
        // a transition: React renders the cards in slices that yield to the browser, so a phone's main thread is
        // never blocked for the whole list at once (Lighthouse's total blocking time on this page)
        startTransition(() =>
          setState({
            kind: 'results',
            params,
            agents: page.agents,
            total: page.totalResults,
            location: page.location,
            message: page.message,
            loadingMore: false,
          }),
        ),
      )
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        const message = error instanceof Error ? error.message : String(error)
        setState(error instanceof InvalidSearchError ? { kind: 'invalid', message } : { kind: 'error', message })
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
      setState({
        ...state,
        loadingMore: false,
        moreError: `Failed to load more agents: ${error instanceof Error ? error.message : String(error)}`,
      })
    }
  }, [state])

  if (params?.q === '') {
    return (
      <div>
        <SearchBox params={params} />
        <EmptyView title="No agents found" detail="Enter an agent name, ZIP code or address to see matching agents." />
      </div>
    )
  }
  if (state.kind === 'loading' || params === null) return <Skeleton />
  if (state.kind === 'error') return <ErrorView message={state.message} />
  if (state.kind === 'invalid') {
    return (
      <div>
        <h1 className="text-3xl font-bold tracking-tight break-words">Check your search</h1>
        <SearchBox params={params} error={state.message} />
      </div>
    )
  }

  const { agents, total, location } = state
  // a name search too short to rank anyone ('J'): the function asks for more letters; say that instead of a count
  const askForMore = agents.length === 0 && state.params.type === 'agent' && Boolean(state.message)
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight break-words">{searchTitle(state.params)}</h1>
      <p className="mt-2 text-slate-700" role="status">
        {askForMore ? state.message : resultCountText(total, location)}
      </p>
      <SearchBox params={state.params} />
      {state.params.type === 'zipcode' && /^\d{5}$/.test(state.params.q) && agents.length > 0 && (
        <p className="mt-1 text-sm">
          <a href={zipUrl(state.params.q)} className="text-blue-700 underline">
            Top agents in {state.params.q} with the ZIP's market figures
          </a>
        </p>
      )}
      {askForMore ? null : agents.length === 0 ? (
        <EmptyView title="No agents found" detail={noResultsText(state.params.q)} note={state.message} heading="h2" />
      ) : (
        <>
          <ul className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label="Agents">
            {agents.map((agent) => (
              <li key={agent.id} className="min-w-0">
                <AgentCard agent={agent} />
              </li>
            ))}
          </ul>
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
                className="rounded-control border border-slate-300 bg-white px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70"
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

/** The results page's own search box, prefilled with the current search so a refused or empty search is corrected in place. */
function SearchBox({ params, error = null }: { params: SearchParams; error?: string | null }) {
  return (
    <div className="mt-6 max-w-3xl">
      <HeroSearch initialQuery={params.q} initialType={params.type} initialError={error} />
    </div>
  )
}

// the query string never changes while the page is open (searching again loads a new page)
const subscribeToNothing = () => () => {}
const readSearch = () => window.location.search

const badgeClasses: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-900',
  blue: 'bg-brand-100 text-brand-900',
  yellow: 'bg-yellow-100 text-yellow-900',
  gray: 'bg-slate-200 text-slate-800',
}

function AgentCard({ agent }: { agent: AgentSearchResult }) {
  const badge = rankingBadge(agent.local_ranking, agent.total_agents_in_area)
  const areas = serviceAreaSummary(agent.service_areas)
  const priceRange = formatPriceRange(agent.price_range_min, agent.price_range_max)
  const headingId = `agent-${agent.id}`
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full min-w-0 flex-col rounded-card border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start gap-3">
        {agent.photo_url ? (
          <img
            src={agent.photo_url}
            alt=""
            width={56}
            height={56}
            loading="lazy"
            className="h-14 w-14 rounded-full object-cover"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-brand-100 text-lg font-semibold text-brand-800"
          >
            {initials(agent.name)}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="truncate text-lg font-semibold text-slate-900">
            {agent.name}
          </h2>
          {agent.brokerage && <p className="truncate text-sm text-slate-700">{agent.brokerage}</p>}
          {badge && (
            <span
              data-testid="ranking-badge"
              data-tone={badge.tone}
              className={`mt-1.5 inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeClasses[badge.tone]}`}
            >
              <TrendingUp aria-hidden="true" className="h-3.5 w-3.5" />
              {badge.label}
            </span>
          )}
        </div>
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
      {/* the compare tray and the heart: the same lists as every other page (~/lib/agent-lists.ts) */}
      <CompareCheckbox id={agent.id} name={agent.name} />
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        <a
          href={agentUrl(agent.id)}
          aria-label={`View Profile of ${agent.name}`}
          className="min-w-0 flex-1 rounded-control bg-brand-700 px-3 py-2 text-center text-sm font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          View Profile
        </a>
        <SaveAgentHeart id={agent.id} name={agent.name} />
        {agent.phone && (
          <a
            href={`tel:${agent.phone.replace(/[^+\d]/g, '')}`}
            aria-label={`Call ${agent.name}`}
            title={`Call ${agent.name}`}
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-control border border-slate-300 text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <Phone aria-hidden="true" className="h-4 w-4" />
          </a>
        )}
        {agent.email && (
          <a
            href={`mailto:${agent.email}`}
            aria-label={`Email ${agent.name}`}
            title={`Email ${agent.name}`}
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-control border border-slate-300 text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <Mail aria-hidden="true" className="h-4 w-4" />
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
      <ul className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <li
            key={index}
            data-testid="agent-card-skeleton"
            className="h-64 animate-pulse rounded-lg border border-slate-200 bg-white p-5"
          >
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
        className="mt-6 inline-block rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        Back to Search
      </a>
    </section>
  )
}

function EmptyView({
  title,
  detail,
  note,
  heading = 'h1',
}: {
  title: string
  detail: string
  note?: string
  heading?: 'h1' | 'h2'
}) {
  const Heading = heading
  return (
    <section className="mx-auto max-w-xl py-12 text-center">
      <Heading className="text-2xl font-bold tracking-tight">{title}</Heading>
      <p className="mt-3 break-words text-slate-700">{detail}</p>
      {note && <p className="mt-2 text-sm text-slate-600">{note}</p>}
      <a
        href="/search"
        className="mt-6 inline-block rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        New Search
      </a>
    </section>
  )
}
