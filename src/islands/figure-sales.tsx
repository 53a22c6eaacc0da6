import { useMemo, useState, useSyncExternalStore, type ReactNode } from 'react'

import type { AgentFigureSales, FigureSale } from '@shared/figures-contract.ts'
import { dataAsOfText, figuresWindowText, formatFigure, intervalText } from '@shared/figure-display.ts'
import { METRICS, ROLE_LABELS, type FigureMetric } from '@shared/methodology.ts'
import { METHODOLOGY_PATH, agentUrl } from '@shared/urls.ts'
import { formatCount, formatDate, formatPercent, formatUsd } from '~/lib/format'
import { fetchFigureSales, parseFigureSalesParams, type FigureSalesPage } from '~/lib/figure-sales'
import { LoadError, useLiveLoad } from './use-live-load'

/**
 * /figure-sales?agent=<id>&figure=<metric>: "the sales behind this figure", live from public.agent_figure_sales: the
 * figure with its n, interval and window, its formula in words, the exact sales (address, close date, role, list and
 * sale price, days on market, source and source record id) and a CSV download of those rows (the shared CSV module,
 * loaded on the first download). `saleMarker` may add a mark to a sale's row (after its address).
 */
export function FigureSales({ saleMarker }: { saleMarker?: (sale: FigureSale) => ReactNode } = {}) {
  const search = useSyncExternalStore(subscribeToNothing, readSearch, () => null)
  const parsed = useMemo(() => (search === null ? null : parseFigureSalesParams(search)), [search])
  const { state, retry } = useLiveLoad(
    parsed?.ok ? `${parsed.agentId}/${parsed.metric}` : null,
    async () => {
      const page = await fetchFigureSales(
        parsed!.ok ? parsed!.agentId : '',
        parsed!.ok ? parsed!.metric : 'total_sales',
      )
      if (page) document.title = `${page.sales.label} of ${page.agent.name}: the sales behind it | AgentInsight`
      return page
    },
    'Loading the sales behind a figure failed',
  )

  if (parsed && !parsed.ok) return <Notice title="Nothing to show" detail={parsed.message} />
  if (state.kind === 'loading') {
    return (
      <div aria-busy="true">
        <p className="sr-only" role="status">
          Loading the sales…
        </p>
        <div className="h-8 w-2/3 max-w-md animate-pulse rounded bg-slate-200" aria-hidden="true" />
        <div className="mt-4 h-24 animate-pulse rounded-lg bg-slate-200" aria-hidden="true" />
        <div className="mt-4 h-64 animate-pulse rounded-lg bg-slate-200" aria-hidden="true" />
      </div>
    )
  }
  if (state.kind === 'error')
    return (
      <LoadError
        title="Something went wrong"
        message="Failed to load the sales behind this figure. Please try again."
        onRetry={retry}
        className="py-12"
      />
    )
  if (!state.value)
    return <Notice title="Agent not found" detail="The agent you're looking for doesn't exist or has been removed." />
  return <FigureSalesView page={state.value} saleMarker={saleMarker} />
}

function FigureSalesView({
  page,
  saleMarker,
}: {
  page: FigureSalesPage
  saleMarker?: (sale: FigureSale) => ReactNode
}) {
  const { agent, sales } = page
  const metric = sales.metric as FigureMetric
  const definition = METRICS[metric]
  const sources = [...new Set(sales.rows.flatMap((row) => (row.source ? [row.source] : [])))]
  const interval =
    sales.interval_low !== null && sales.interval_high !== null
      ? intervalText(metric, [sales.interval_low, sales.interval_high])
      : null
  return (
    <div>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-800">The sales behind this figure</p>
      <h1 className="mt-1 break-words text-3xl font-bold tracking-tight">
        {sales.label} of{' '}
        <a href={agentUrl(agent.id)} className="text-blue-800 underline">
          {agent.name}
        </a>
      </h1>
      {agent.brokerage && <p className="mt-1 text-slate-700">{agent.brokerage}</p>}

      <section
        aria-label="The figure"
        className="mt-6 grid gap-4 rounded-lg border border-slate-200 bg-white p-5 md:grid-cols-[auto_1fr]"
      >
        <div>
          <p className="text-4xl font-bold tracking-tight text-slate-900" data-testid="figure-value">
            {formatFigure(metric, sales.value)}
          </p>
          <p className="mt-1 text-sm text-slate-700">
            n = {formatCount(sales.n)} {sales.n === 1 ? 'sale' : 'sales'}
            {interval ? ` · ${interval}` : ''}
          </p>
          {sales.window_start && sales.window_end && (
            <p className="text-sm text-slate-700">
              Window: {figuresWindowText({ window_start: sales.window_start, window_end: sales.window_end })}
            </p>
          )}
        </div>
        <div className="min-w-0 md:border-l md:border-slate-200 md:pl-5">
          <h2 className="text-sm font-semibold text-slate-900">How it is computed</h2>
          <p className="mt-1 text-slate-800" data-testid="formula">
            {sales.formula}
          </p>
          <ContextInputs sales={sales} />
          <p className="mt-2 text-sm">
            <a href={`${METHODOLOGY_PATH}#${metric}`} className="font-medium text-blue-700 underline">
              Methodology v{sales.methodology_version}: {definition.label.toLowerCase()}
            </a>
          </p>
        </div>
      </section>

      <p className="mt-3 text-sm text-slate-700" data-testid="data-as-of">
        {dataAsOfText(sales.data_date, sources)}.{' '}
        <a href={METHODOLOGY_PATH} className="font-medium text-blue-700 underline">
          How we compute these figures
        </a>
      </p>

      <section aria-labelledby="rows-title" className="mt-8">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="rows-title" className="text-xl font-semibold">
              {formatCount(sales.total_rows)} {sales.total_rows === 1 ? 'sale' : 'sales'}
            </h2>
            <p className="text-sm text-slate-700">
              {sales.truncated
                ? `The newest ${formatCount(sales.rows.length)} are listed and downloaded; the figure is computed from all ${formatCount(sales.total_rows)}.`
                : 'Newest first. The CSV has the same rows, with plain numbers a spreadsheet can recompute the figure from.'}
            </p>
          </div>
          <CsvDownload agentName={agent.name} sales={sales} />
        </div>
        {sales.rows.length === 0 ? (
          <p className="mt-4 text-slate-700">No sales behind this figure in the window.</p>
        ) : (
          <SalesRows rows={sales.rows} saleMarker={saleMarker} />
        )}
      </section>
    </div>
  )
}

/** The inputs besides the rows: the ZIP mean and k of the shrunk sale-to-list, the ZIP's closed sales of the share. */
function ContextInputs({ sales }: { sales: AgentFigureSales }) {
  if (sales.metric === 'sale_to_list_shrunk')
    return (
      <p className="mt-1 text-sm text-slate-700">
        With the ZIP {sales.zip_code}'s mean sale-to-list {formatPercent(sales.prior, 2)} and k ={' '}
        {sales.shrink_k === null ? '—' : String(sales.shrink_k)}.
      </p>
    )
  if (sales.zip_closed_sales !== null)
    return (
      <p className="mt-1 text-sm text-slate-700">
        With {formatCount(sales.zip_closed_sales)} closed sales in ZIP {sales.zip_code} in the window.
      </p>
    )
  return null
}

type DownloadState = { kind: 'idle' } | { kind: 'working' } | { kind: 'error'; message: string }

/** "Download CSV": builds the file from the rows shown with the shared CSV module, fetched on the first click. */
function CsvDownload({ agentName, sales }: { agentName: string; sales: AgentFigureSales }) {
  const [state, setState] = useState<DownloadState>({ kind: 'idle' })
  async function download() {
    setState({ kind: 'working' })
    try {
      const { figureSalesCsv, figureSalesCsvFileName } = await import('@shared/figure-sales-csv.ts')
      const url = URL.createObjectURL(new Blob([figureSalesCsv(sales)], { type: 'text/csv;charset=utf-8' }))
      const link = document.createElement('a')
      link.href = url
      link.download = figureSalesCsvFileName(agentName, sales)
      document.body.append(link)
      link.click()
      link.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
      setState({ kind: 'idle' })
    } catch (error) {
      console.error('Building the CSV failed', error)
      setState({ kind: 'error', message: 'Failed to build the CSV. Please try again.' })
    }
  }
  return (
    <div className="text-right">
      <button
        type="button"
        onClick={download}
        disabled={state.kind === 'working' || sales.rows.length === 0}
        aria-busy={state.kind === 'working'}
        className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {state.kind === 'working' ? 'Preparing CSV…' : 'Download CSV'}
      </button>
      {state.kind === 'error' && (
        <p role="alert" className="mt-1 text-sm text-red-800">
          {state.message}
        </p>
      )}
    </div>
  )
}

const COLUMNS: [label: string, numeric: boolean][] = [
  ['Address', false],
  ['Close date', false],
  ['Role', false],
  ['List price', true],
  ['Sale price', true],
  ['Sale-to-list', true],
  ['Days on market', true],
  ['Source', false],
  ['Source record id', false],
]

function SalesRows({ rows, saleMarker }: { rows: FigureSale[]; saleMarker?: (sale: FigureSale) => ReactNode }) {
  return (
    <>
      <p className="mt-3 text-sm text-slate-700 md:hidden" id="rows-scroll-cue">
        Swipe the table sideways for prices, days on market and the source →
      </p>
      <div
        className="mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white"
        tabIndex={0}
        role="region"
        aria-labelledby="rows-title"
        aria-describedby="rows-scroll-cue"
      >
        <table className="w-full min-w-[56rem] text-left text-sm">
          <caption className="sr-only">The sales behind this figure, newest first</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {COLUMNS.map(([label, numeric]) => (
                <th key={label} scope="col" className={`px-3 py-2 font-semibold ${numeric ? 'text-right' : ''}`}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.property_id}-${row.side}`} className="border-t border-slate-200">
                <th scope="row" className="px-3 py-2 font-medium">
                  {row.address}
                  <span className="block text-xs font-normal text-slate-600">
                    {[row.city, row.state].filter(Boolean).join(', ')} {row.zip_code ?? ''}
                  </span>
                  {saleMarker?.(row)}
                </th>
                <td className="whitespace-nowrap px-3 py-2">{formatDate(row.close_date)}</td>
                <td className="px-3 py-2">
                  {ROLE_LABELS[row.role]}
                  {row.credit < 1 && <span className="block text-xs text-slate-600">shared: {row.credit} side</span>}
                  {row.dual_agency && <span className="block text-xs text-slate-600">dual agency</span>}
                </td>
                <td className="px-3 py-2 text-right">{formatUsd(row.list_price)}</td>
                <td className="px-3 py-2 text-right">{formatUsd(row.close_price)}</td>
                <td className="px-3 py-2 text-right">{formatPercent(row.sale_to_list)}</td>
                <td className="px-3 py-2 text-right">{row.days_on_market ?? '—'}</td>
                <td className="px-3 py-2">{row.source ?? '—'}</td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{row.source_record_id ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

function Notice({ title, detail }: { title: string; detail: string }) {
  return (
    <section className="mx-auto max-w-xl py-12 text-center">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
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

// the query string never changes while the page is open
const subscribeToNothing = () => () => {}
const readSearch = () => window.location.search
