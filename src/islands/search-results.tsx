import { startTransition, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react'

import type {
  AgentSearchResult,
  SearchAgentsError,
  SearchAgentsResponse,
  SearchLocation,
} from '@shared/search-contract.ts'
import { agentUrl, figureSalesUrl, zipUrl } from '@shared/urls.ts'
import {
  formatCount,
  formatDays,
  formatPercent,
  formatPriceRange,
  formatSides,
  formatUsd,
  initials,
} from '~/lib/format'
import { callFunction } from '~/lib/functions-client'
import { CompareCheckbox, SaveAgentHeart } from './agent-list-buttons'
import {
  FUNCTION_FAILED_MESSAGE,
  NO_DATA_MESSAGE,
  PRICE_BANDS,
  SEARCH_PAGE_SIZE,
  SEARCH_SIDE_OPTIONS,
  SEARCH_SORT_OPTIONS,
  hasFilters,
  noResultsText,
  parseSearchParams,
  rankingBadge,
  resultCountText,
  searchRequestBody,
  searchResultsUrl,
  serviceAreaSummary,
  type BadgeTone,
  type SearchParams,
} from '~/lib/search-results'
import { HeroSearch } from './hero-search'

/** Every settled state names the search it answers (its results URL), so a new sort or filter shows the skeleton. */
type State =
  | { kind: 'loading' }
  | { kind: 'error'; key: string; message: string }
  /** The function refused the query (HTTP 400): a correctable message shown under the prefilled search box. */
  | { kind: 'invalid'; key: string; message: string }
  | {
      kind: 'results'
      key: string
      params: SearchParams
      agents: AgentSearchResult[]
      total: number
      location: SearchLocation | null
      message?: string
      /** The PropertyType values sold in the area (ZIP and address searches). */
      propertyTypes: string[]
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
    searchRequestBody(params, SEARCH_PAGE_SIZE, offset),
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
 * The /search-results island: reads `?q=&type=` (missing type = agent) and, for ZIP and address searches, the sort
 * and filters (side, price band, property type), calls the search-agents function and shows the result cards with
 * paging (Load more), a six-card skeleton while loading, an error view and an empty view. Changing the sort or a
 * filter updates the URL (shareable, Back returns) and searches again. Without a query it shows the empty view and
 * sends nothing.
 */
export function SearchResults() {
  // null while prerendering: the shell shows the skeleton until the browser knows the query
  const search = useSyncExternalStore(subscribeToHistory, readSearch, () => null)
  const params = useMemo(() => (search === null ? null : parseSearchParams(search)), [search])
  const [state, setState] = useState<State>({ kind: 'loading' })
  // the sort and filters on a phone: null until the visitor opens or closes them (then shown while any is set)
  const [controlsOpen, setControlsOpen] = useState<boolean | null>(null)

  useEffect(() => {
    if (!params || params.q === '') return
    const key = searchResultsUrl(params)
    const controller = new AbortController()
    searchAgents(params, 0, controller.signal)
      .then((page) =>
        // a transition: React renders the cards in slices that yield to the browser, so a phone's main thread is
        // never blocked for the whole list at once (Lighthouse's total blocking time on this page)
        startTransition(() =>
          setState({
            kind: 'results',
            key,
            params,
            agents: page.agents,
            total: page.totalResults,
            location: page.location,
            message: page.message,
            propertyTypes: page.facets?.propertyTypes ?? [],
            loadingMore: false,
          }),
        ),
      )
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        const message = error instanceof Error ? error.message : String(error)
        setState(
          error instanceof InvalidSearchError ? { kind: 'invalid', key, message } : { kind: 'error', key, message },
        )
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
  // a new sort or filter: the previous answer is not this search's
  if (state.kind === 'loading' || params === null || state.key !== searchResultsUrl(params)) return <Skeleton />
  if (state.kind === 'error')
    return <EmptyView title="Something went wrong" detail={`Failed to search agents: ${state.message}`} failed />
  if (state.kind === 'invalid') {
    return (
      <div>
        <SearchBox params={params} error={state.message} />
      </div>
    )
  }

  const { agents, total, location } = state
  const area = state.params.type !== 'agent'
  // a name search too short to rank anyone ('J'): the function asks for more letters; say that instead of a count
  const askForMore = agents.length === 0 && state.params.type === 'agent' && Boolean(state.message)
  return (
    <div>
      <p className="mt-2 text-slate-700" role="status">
        {askForMore ? state.message : resultCountText(total, location)}
      </p>
      <SearchBox params={state.params} />
      {area && (
        <ResultControls
          params={state.params}
          propertyTypes={state.propertyTypes}
          open={controlsOpen ?? (hasFilters(state.params) || state.params.sort !== undefined)}
          onToggle={setControlsOpen}
          lead={
            state.params.type === 'zipcode' &&
            /^\d{5}$/.test(state.params.q) &&
            agents.length > 0 && (
              <a href={zipUrl(state.params.q)} className="text-blue-700 underline">
                Top agents in {state.params.q} with the ZIP's market figures
              </a>
            )
          }
        />
      )}
      {askForMore ? null : agents.length === 0 ? (
        <EmptyView
          title="No agents found"
          detail={
            hasFilters(state.params)
              ? 'No agent has sales in this area that match these filters.'
              : noResultsText(state.params.q)
          }
          note={state.message}
        />
      ) : (
        <>
          <ul className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3 sm:mt-6" aria-label="Agents">
            {agents.map((agent) => (
              <li key={agent.id} className="min-w-0">
                <AgentCard agent={agent} area={area} />
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

/** Opens `params` in place: the URL changes (Back returns to the previous results) and the island searches again. */
function navigate(params: SearchParams) {
  window.history.pushState(null, '', searchResultsUrl(params))
  window.dispatchEvent(new PopStateEvent('popstate'))
}

/**
 * Sort and filters of an area search (order, side, price band, property type: the types sold in the area), with
 * `lead` (the ZIP page's link) above them. Each change updates the URL and searches again. On a phone they fold behind
 * a "Sort and filter" button (open while a sort or filter is set, or when the visitor opened them), so the first agent
 * card starts on the first screen; from the sm breakpoint they are always shown.
 */
function ResultControls({
  params,
  propertyTypes,
  open,
  onToggle,
  lead,
}: {
  params: SearchParams
  propertyTypes: string[]
  open: boolean
  onToggle: (open: boolean) => void
  lead: ReactNode
}) {
  const bandOf = (min?: number | null, max?: number | null) => `${min ?? ''}-${max ?? ''}`
  const chosen = bandOf(params.minPrice, params.maxPrice)
  const band = chosen === '-' ? '' : chosen
  const bands: [string, string][] = [
    ['', 'Any price'],
    ...PRICE_BANDS.map((option) => [bandOf(option.min, option.max), option.label] as [string, string]),
  ]
  // a band from a shared URL that is not one of ours is still shown as chosen
  if (!bands.some(([value]) => value === band))
    bands.push([
      band,
      `${params.minPrice !== undefined ? formatUsd(params.minPrice) : 'Any'} to ${params.maxPrice !== undefined ? formatUsd(params.maxPrice) : 'any'}`,
    ])
  const types = propertyTypes.includes(params.propertyType ?? '')
    ? propertyTypes
    : [...propertyTypes, params.propertyType ?? ''].filter(Boolean)
  // labels apart from their selects: a wrapping label would name each select with its chosen option as well (one
  // such form on the page, so fixed ids)
  const id = 'results'
  const field = (key: string, label: string, value: string, options: readonly (readonly [string, string])[]) => (
    <div>
      <label htmlFor={`${id}-${key}`} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={`${id}-${key}`}
        name={key}
        className="mt-1 block w-full rounded-control border border-slate-300 bg-white px-2 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700"
        defaultValue={value}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  )
  return (
    <>
      <div className="mt-1 flex items-start justify-between gap-3">
        <p className="text-sm">{lead}</p>
        <button
          type="button"
          className="mt-1 shrink-0 rounded-control border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-700 sm:hidden"
          aria-expanded={open}
          aria-controls={`${id}-controls`}
          onClick={() => onToggle(!open)}
        >
          Sort and filter
        </button>
      </div>
      <form
        id={`${id}-controls`}
        aria-label="Sort and filter"
        className={`mt-3 grid-cols-2 gap-3 rounded-card border border-slate-200 bg-white p-4 sm:mt-6 sm:grid lg:grid-cols-4 ${open ? 'grid' : 'hidden'}`}
        onSubmit={(event) => event.preventDefault()}
        // any select changed: the form's values as a results URL, read back the way the page reads its URL
        onChange={(event) => {
          const search = new URLSearchParams(new FormData(event.currentTarget) as unknown as Record<string, string>)
          const [minPrice = '', maxPrice = ''] = (search.get('price') ?? '').split('-')
          search.set('minPrice', minPrice)
          search.set('maxPrice', maxPrice)
          search.set('q', params.q)
          search.set('type', params.type)
          navigate(parseSearchParams(`?${search}`))
        }}
      >
        {field('sort', 'Sort by', params.sort ?? 'sides', SEARCH_SORT_OPTIONS)}
        {field('side', 'Side', params.side ?? 'any', SEARCH_SIDE_OPTIONS)}
        {field('price', 'Sale price', band, bands)}
        {field('propertyType', 'Property type', params.propertyType ?? '', [
          ['', 'Any type'],
          ...types.map((type) => [type, type] as const),
        ])}
        {hasFilters(params) && (
          <p className="col-span-2 text-sm text-slate-700 lg:col-span-4">
            Only the matching sales count in the figures of this area.{' '}
            <button
              type="button"
              onClick={() => navigate({ q: params.q, type: params.type, sort: params.sort })}
              className="font-medium text-brand-700 underline"
            >
              Clear filters
            </button>
          </p>
        )}
      </form>
    </>
  )
}

/** The results page's own search box, prefilled with the current search so a refused or empty search is corrected in place. */
function SearchBox({ params, error = null }: { params: SearchParams; error?: string | null }) {
  return (
    <div className="mt-4 max-w-3xl sm:mt-6">
      <HeroSearch initialQuery={params.q} initialType={params.type} initialError={error} />
    </div>
  )
}

// the query string changes when the visitor sorts or filters (navigate) and on Back / Forward
const subscribeToHistory = (onChange: () => void) => {
  window.addEventListener('popstate', onChange)
  return () => window.removeEventListener('popstate', onChange)
}
const readSearch = () => window.location.search

const badgeClasses: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-900',
  blue: 'bg-brand-100 text-brand-900',
  yellow: 'bg-yellow-100 text-yellow-900',
  gray: 'bg-slate-200 text-slate-800',
}

function AgentCard({ agent, area }: { agent: AgentSearchResult; area: boolean }) {
  const sides = agent.sides ?? null
  const badge = sides ? rankingBadge(sides.zip_rank, sides.zip_agents) : null
  const areas = serviceAreaSummary(agent.service_areas)
  const priceRange = formatPriceRange(agent.price_range_min, agent.price_range_max)
  const headingId = `agent-${agent.id}`
  const here = area ? (agent.area_figures ?? null) : null
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
          {badge ? (
            <a
              href={figureSalesUrl(agent.id, 'zip_sides')}
              data-testid="ranking-badge"
              data-tone={badge.tone}
              aria-label={`${badge.label} in ${agent.primary_zip_code ?? 'their ZIP'} by sides: the sales behind this rank`}
              className={`mt-1.5 inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold underline-offset-2 hover:underline ${badgeClasses[badge.tone]}`}
            >
              <Icon name="trending-up" className="h-3.5 w-3.5" />
              {badge.label}
            </a>
          ) : (
            sides?.ranking_note && (
              <p className="mt-1.5 text-xs text-slate-600" data-testid="ranking-note">
                {sides.ranking_note}
              </p>
            )
          )}
        </div>
      </div>
      {here && (
        <p className="mt-3 rounded-md bg-brand-50 px-3 py-2 text-sm text-slate-800" data-testid="area-figures">
          <span className="font-semibold">{agent.area_rank ? `#${agent.area_rank} here: ` : 'Here: '}</span>
          {formatCount(here.sales)} {here.sales === 1 ? 'sale' : 'sales'} · {formatSides(here.sides)} sides ·{' '}
          {formatUsd(here.volume)}
          {here.sale_to_list_mean !== null &&
            ` · sale-to-list ${formatPercent(here.sale_to_list_mean)} (n = ${here.sale_to_list_n})`}
        </p>
      )}
      {sides ? (
        <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
          {(
            [
              // [term, figure, its name in the link's label, value, note]
              ['Listing sales', 'listing_sales', 'Listing sales', formatCount(sides.listing_sales)],
              ['Buyer sales', 'buyer_sales', 'Buyer sales', formatCount(sides.buyer_sales)],
              [
                'Sale-to-list (median)',
                'sale_to_list_median',
                'Sale-to-list (median)',
                formatPercent(sides.sale_to_list_median),
                `n = ${sides.sale_to_list_n}`,
              ],
              ['Volume', 'total_volume', 'Volume (both sides)', formatUsd(sides.total_volume)],
              [
                'Avg. days on market',
                'days_on_market_mean',
                'Days on market (mean)',
                formatDays(agent.average_days_on_market),
              ],
              ['Price range', 'listing_price_max', 'Listing-side price range', priceRange],
            ] as [string, string, string, string | null, string?][]
          ).map(([term, metric, label, value, note]) => (
            <div key={metric}>
              <dt className="text-slate-600">{term}</dt>
              <dd className="font-semibold">
                {value ? (
                  <a
                    href={figureSalesUrl(agent.id, metric)}
                    aria-label={`${label}: ${value}. The sales behind this figure`}
                    className="underline decoration-slate-300 underline-offset-4 hover:text-brand-800"
                  >
                    {value}
                  </a>
                ) : (
                  '—'
                )}
                {note && <span className="text-xs font-normal text-slate-600"> {note}</span>}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-4 text-sm text-slate-700">No closed sales in the window.</p>
      )}
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
            <Icon name="phone" />
          </a>
        )}
        {agent.email && (
          <a
            href={`mailto:${agent.email}`}
            aria-label={`Email ${agent.name}`}
            title={`Email ${agent.name}`}
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-control border border-slate-300 text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <Icon name="mail" />
          </a>
        )}
      </div>
    </article>
  )
}

/**
 * A card icon (lucide's phone, mail and trending-up), drawn from the symbols the results page's HTML carries
 * (src/pages/search-results.astro), so the island ships no icon code.
 */
function Icon({ name, className = 'h-4 w-4' }: { name: 'phone' | 'mail' | 'trending-up'; className?: string }) {
  return (
    <svg aria-hidden="true" className={className}>
      <use href={`#icon-${name}`} />
    </svg>
  )
}

function Skeleton() {
  return (
    <div aria-busy="true">
      <p className="sr-only" role="status">
        Loading agents…
      </p>
      <div className="mt-3 h-5 w-40 animate-pulse rounded bg-slate-200" />
      <ul className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3 sm:mt-6" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <li
            key={index}
            data-testid="agent-card-skeleton"
            className="h-64 animate-pulse rounded-lg border border-slate-200 bg-white p-5"
          >
            <div className="h-14 w-14 rounded-full bg-slate-200" />
            <div className="mt-6 h-24 rounded bg-slate-100" />
          </li>
        ))}
      </ul>
    </div>
  )
}

function EmptyView({
  title,
  detail,
  note,
  failed = false,
}: {
  title: string
  detail: string
  note?: string
  /** The search failed: an alert, and the link goes back to the search page. */
  failed?: boolean
}) {
  return (
    <section className="mx-auto max-w-xl py-12 text-center" role={failed ? 'alert' : undefined}>
      <h2 className="text-2xl font-bold tracking-tight">{title}</h2>
      <p className="mt-3 break-words text-slate-700">{detail}</p>
      {note && <p className="mt-2 text-sm text-slate-600">{note}</p>}
      <a
        href="/search"
        className="mt-6 inline-block rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        {failed ? 'Back to Search' : 'New Search'}
      </a>
    </section>
  )
}
