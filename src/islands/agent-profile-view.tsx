import type { ReactNode } from 'react'

import type { AgentProfile, AgentRow, BenchmarkRow, FiguresRow, QuarterSales, RecentSale } from '../lib/agent-profile'
import { DEMO_DATA_NOTICE } from '../lib/agent-profile'
import { formatDate, formatDays, formatPercent, formatUsd, initials, saleToListPercent } from '../lib/format'
import { FIGURE_GROUPS, dataAsOfText, figureDisplay, figuresWindowText, zipRankText } from '@shared/figure-display.ts'
import { rankingBadge } from '../lib/search-results'
import { METRICS, type FigureMetric } from '@shared/methodology.ts'
import { METHODOLOGY_PATH, figureSalesUrl, zipUrl } from '@shared/urls.ts'
import { SalesTableHead } from './sales-table-head'

/** "Jan 5, 2026 – Dec 31, 2026", or 'no closed sales yet' without a metrics window. */
export function metricsWindowText(agent: Pick<AgentRow, 'metrics_window_start' | 'metrics_window_end'>): string {
  return agent.metrics_window_start && agent.metrics_window_end
    ? `${formatDate(agent.metrics_window_start)} – ${formatDate(agent.metrics_window_end)}`
    : 'no closed sales yet'
}

/**
 * "Data as of <date> from <sources>, methodology v<N>" with the link to /methodology: the line every page with
 * figures carries.
 */
export function DataAsOf({ dataDate, sources }: { dataDate: string | null; sources: readonly string[] }) {
  return (
    <p className="text-sm text-slate-700" data-testid="data-as-of">
      {dataAsOfText(dataDate, sources)}.{' '}
      <a href={METHODOLOGY_PATH} className="font-medium text-blue-700 underline">
        How we compute these figures
      </a>
    </p>
  )
}

/**
 * The agent profile as HTML: header with the ZIP rank, every figure per side (listing, buyer, both) with its n, window,
 * 95 % interval and difference from the ZIP, each opening the sales behind it; charts (sale-to-list of each recent sale
 * against the ZIP figure, closed sales per quarter) as plain SVG, the market comparison with the source's
 * attribution, recent sales and a details sidebar. Pure: rendered at build time for /agent/<id> and by the live
 * island for agents newer than the build. `actions` is the Share / Get Report island; `saleMarker` may add a mark to a
 * recent sale's row (after its address).
 */
export function AgentProfileView({
  profile,
  actions,
  saleMarker,
}: {
  profile: AgentProfile
  actions?: ReactNode
  saleMarker?: (sale: RecentSale) => ReactNode
}) {
  const { agent, figures, sales, benchmark, synthetic, quarters } = profile
  const place = [agent.city, agent.state].filter(Boolean).join(', ') || null
  const badge = figures ? rankingBadge(figures.zip_rank, figures.zip_agents) : null

  return (
    <div>
      {synthetic && <p className="mb-6 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-950">{DEMO_DATA_NOTICE}</p>}
      {/* stacked on phones so Share and Get Report never sit on the name; fixed-size avatar and action row keep CLS at 0 */}
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:gap-5">
        <div className="flex min-w-0 flex-1 items-start gap-4 sm:gap-5">
          {agent.photo_url ? (
            <img
              src={agent.photo_url}
              alt={`Photo of ${agent.name}`}
              width={96}
              height={96}
              className="h-16 w-16 shrink-0 rounded-full object-cover sm:h-24 sm:w-24"
            />
          ) : (
            <span
              aria-hidden="true"
              className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-blue-100 text-2xl font-semibold text-blue-800 sm:h-24 sm:w-24 sm:text-3xl"
            >
              {initials(agent.name)}
            </span>
          )}
          <div className="min-w-0 flex-1">
            <h1 className="break-words text-2xl font-bold tracking-tight sm:text-3xl">{agent.name}</h1>
            {agent.brokerage && <p className="mt-1 text-lg text-slate-700">{agent.brokerage}</p>}
            <Rating rating={agent.rating} reviews={agent.review_count} />
            {badge && figures && (
              <p className="mt-2">
                <a
                  href={figureSalesUrl(agent.id, 'zip_sides')}
                  data-testid="ranking-badge"
                  data-tone={badge.tone}
                  aria-label={`${badge.label} in ${figures.primary_zip_code} by sides: the sales behind this rank`}
                  className="inline-block rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-800 underline decoration-slate-400 underline-offset-2 hover:bg-slate-200"
                >
                  {badge.label} in {figures.primary_zip_code}
                </a>
              </p>
            )}
          </div>
        </div>
        <div className="flex h-10 shrink-0 gap-2">{actions}</div>
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_18rem]">
        <div className="min-w-0 space-y-8">
          <section aria-labelledby="metrics-title">
            <h2 id="metrics-title" className="text-xl font-semibold">
              Performance
            </h2>
            {figures ? (
              <>
                <p className="mt-1 text-sm text-slate-700">
                  Closed sales on either side of the deal, {figuresWindowText(figures)}. Every figure opens the sales
                  behind it.
                </p>
                <div className="mt-1">
                  <DataAsOf dataDate={figures.window_end} sources={figures.sources} />
                </div>
                <div className="mt-4 grid gap-4 xl:grid-cols-2">
                  {FIGURE_GROUPS.map((group) => (
                    <FigureGroup key={group.id} figures={figures} group={group} />
                  ))}
                  <ZipRankGroup figures={figures} />
                </div>
              </>
            ) : (
              <p className="mt-2 text-slate-700">
                No closed sales in the window on either side, so there are no figures yet.{' '}
                <a href={METHODOLOGY_PATH} className="text-blue-700 underline">
                  How we compute the figures
                </a>
              </p>
            )}
          </section>

          <section aria-labelledby="charts-title">
            <h2 id="charts-title" className="text-xl font-semibold">
              Sales at a glance
            </h2>
            <div className="mt-4 grid gap-4 md:grid-cols-2">
              <SaleToListChart sales={sales} benchmark={benchmark} />
              <QuarterlySalesChart quarters={quarters} />
            </div>
          </section>

          {benchmark && <MarketComparison figures={figures} benchmark={benchmark} />}

          <RecentSales sales={sales} saleMarker={saleMarker} />
        </div>

        <aside aria-labelledby="details-title" className="h-fit rounded-lg border border-slate-200 bg-white p-5">
          <h2 id="details-title" className="text-lg font-semibold">
            Agent details
          </h2>
          <dl className="mt-3 space-y-3 text-sm">
            <Detail term="License">{agent.license_number ?? 'Not on file'}</Detail>
            <Detail term="Experience">
              {agent.years_experience === null
                ? 'Not on file'
                : `${agent.years_experience} ${agent.years_experience === 1 ? 'year' : 'years'}`}
            </Detail>
            {place && <Detail term="Location">{place}</Detail>}
            <Detail term="Service areas">
              {agent.service_areas.length > 0 ? agent.service_areas.join(', ') : 'None yet'}
            </Detail>
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
          {(figures?.primary_zip_code ?? agent.primary_zip_code) && (
            <a
              href={zipUrl((figures?.primary_zip_code ?? agent.primary_zip_code)!)}
              className="mt-4 inline-block text-sm font-medium text-blue-700 underline"
            >
              Top agents in {figures?.primary_zip_code ?? agent.primary_zip_code}
            </a>
          )}
        </aside>
      </div>
    </div>
  )
}

/** One side's figures: its sales count and window in the heading, then one row per figure. */
function FigureGroup({ figures, group }: { figures: FiguresRow; group: (typeof FIGURE_GROUPS)[number] }) {
  const headingId = `figures-${group.id}`
  const count = figureDisplay(figures, group.count)
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 sm:p-5"
      data-side={group.id}
    >
      <h3 id={headingId} className="text-lg font-semibold">
        {group.title}
      </h3>
      <p className="text-xs text-slate-600">
        {count.value} {count.n === 1 ? 'sale' : 'sales'} {group.who} · {figuresWindowText(figures)}
      </p>
      {count.n === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No sales on this side in the window.</p>
      ) : (
        <dl className="mt-2 divide-y divide-slate-100">
          {group.metrics.map((metric) => (
            <FigureRow key={metric} figures={figures} metric={metric} />
          ))}
        </dl>
      )}
    </section>
  )
}

/**
 * One figure: its label, its value (a link to the sales behind it) and one line with n, the 95 % interval, the
 * difference from the ZIP and, for a rate on a small sample, "too few sales to rank".
 */
export function FigureRow({ figures, metric }: { figures: FiguresRow; metric: FigureMetric }) {
  const figure = figureDisplay(figures, metric)
  // a count is its own n; every other figure says how many sales it rests on
  const count = METRICS[metric].sampleColumn === null
  const details = [count ? null : figure.nText, figure.interval, figure.vsZip].filter(Boolean).join(' · ')
  return (
    <div className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 py-2" data-figure-row={metric}>
      <dt className="text-sm text-slate-700">{figure.label}</dt>
      <dd className="text-right">
        <a
          href={figure.href}
          data-figure={metric}
          aria-label={`${figure.label}: ${figure.value}. The sales behind this figure`}
          className="text-base font-semibold text-slate-900 underline decoration-slate-300 underline-offset-4 hover:text-blue-800 hover:decoration-blue-700"
        >
          {figure.value}
        </a>
      </dd>
      <dd className="col-span-2 mt-0.5 text-xs text-slate-600">
        {details || 'in the window'}
        {figure.smallSample && (
          <span className="mt-0.5 block font-medium text-amber-900" data-testid="small-sample">
            {figure.smallSample}
          </span>
        )}
      </dd>
    </div>
  )
}

/** The rank in the primary ZIP (or "too few sales to rank" and why), with the sides and share it rests on. */
function ZipRankGroup({ figures }: { figures: FiguresRow }) {
  const rank = zipRankText(figures)
  const zip = figures.primary_zip_code
  return (
    <section
      aria-labelledby="figures-zip"
      className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 sm:p-5"
      data-side="zip"
    >
      <h3 id="figures-zip" className="text-lg font-semibold">
        {zip ? `Rank in ${zip}` : 'Rank in a ZIP'}
      </h3>
      <p className="text-xs text-slate-600">
        {zip
          ? `${figures.zip_sales} ${figures.zip_sales === 1 ? 'sale' : 'sales'} in ${zip}, the ZIP with most of the agent's sides · ${figuresWindowText(figures)}`
          : 'No ZIP code on the sales in the window'}
      </p>
      <p className={`mt-2 text-base font-semibold ${rank.ranked ? 'text-slate-900' : 'text-amber-900'}`}>
        {rank.ranked ? (
          <a
            href={figureSalesUrl(figures.agent_id, 'zip_sides')}
            data-testid="zip-rank"
            className="underline decoration-slate-300 underline-offset-4 hover:text-blue-800"
          >
            Ranked {rank.text}
          </a>
        ) : (
          <span data-testid="zip-rank">{rank.text}</span>
        )}
      </p>
      {zip && (
        <dl className="mt-1 divide-y divide-slate-100">
          <FigureRow figures={figures} metric="zip_sides" />
          <FigureRow figures={figures} metric="zip_market_share" />
        </dl>
      )}
    </section>
  )
}

function RecentSales({ sales, saleMarker }: { sales: RecentSale[]; saleMarker?: (sale: RecentSale) => ReactNode }) {
  return (
    <section aria-labelledby="sales-title">
      <h2 id="sales-title" className="text-xl font-semibold">
        Recent sales
      </h2>
      {sales.length === 0 ? (
        <p className="mt-3 text-slate-700">No closed sales on record.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-700 md:hidden" id="sales-scroll-cue">
            Swipe the table sideways for sale-to-list and days on market →
          </p>
          {/* the fade on the right edge shows there is more table beyond the screen */}
          <div className="relative mt-3">
            <div
              className="overflow-x-auto rounded-lg border border-slate-200 bg-white"
              tabIndex={0}
              role="region"
              aria-labelledby="sales-title"
              aria-describedby="sales-scroll-cue"
            >
              <table className="w-full min-w-[40rem] text-left text-sm">
                <caption className="sr-only">The agent's {sales.length} most recent closed sales, newest first</caption>
                <SalesTableHead className="bg-slate-50 text-slate-700" cellClassName="px-3 py-2 font-semibold" />
                <tbody>
                  {sales.map((sale) => {
                    const ratio = saleToListPercent(sale.list_price, sale.close_price)
                    return (
                      <tr key={sale.id} className="border-t border-slate-200">
                        <th scope="row" className="px-3 py-2 font-medium">
                          {sale.address}
                          {saleMarker?.(sale)}
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
            <div
              aria-hidden="true"
              className="pointer-events-none absolute inset-y-0 right-0 w-8 rounded-r-lg bg-gradient-to-l from-white md:hidden"
            />
          </div>
        </>
      )}
    </section>
  )
}

const CHART_WIDTH = 320
const CHART_HEIGHT = 160
const CHART_PAD = { top: 12, right: 8, bottom: 28, left: 40 }

/**
 * Each recent sale's sale-to-list percentage (one dot per sale, oldest left) against the list price (100 %, solid line)
 * and the ZIP's Redfin average sale-to-list (dashed line). Dots, not bars: the axis spans only the values (a bar from a
 * baseline above zero would make a small difference look large). Plain SVG with a text alternative; scales from the
 * data, never from fixed figures.
 */
export function SaleToListChart({ sales, benchmark }: { sales: RecentSale[]; benchmark: BenchmarkRow | null }) {
  const points = sales
    .map((sale) => ({ sale, ratio: saleToListPercent(sale.list_price, sale.close_price) }))
    .filter((point): point is { sale: RecentSale; ratio: number } => point.ratio !== null)
    .reverse()
  const zipFigure =
    benchmark?.avg_sale_to_list_percent === null || benchmark?.avg_sale_to_list_percent === undefined
      ? null
      : Number(benchmark.avg_sale_to_list_percent)
  const title = 'Sale-to-list of each recent sale'
  if (points.length === 0) return <ChartFrame title={title} note="No recent sales with a list and sale price." />
  const values = [...points.map((point) => point.ratio), 100, ...(zipFigure === null ? [] : [zipFigure])]
  const low = Math.floor(Math.min(...values) - 1)
  const high = Math.ceil(Math.max(...values) + 1)
  const plotWidth = CHART_WIDTH - CHART_PAD.left - CHART_PAD.right
  const plotHeight = CHART_HEIGHT - CHART_PAD.top - CHART_PAD.bottom
  const y = (value: number) => CHART_PAD.top + plotHeight - ((value - low) / (high - low)) * plotHeight
  const slot = plotWidth / points.length
  const description = `${points.map((point) => `${point.sale.address}: ${formatPercent(point.ratio)}`).join('; ')}${
    zipFigure === null ? '' : `. ZIP ${benchmark!.zip_code} average: ${formatPercent(zipFigure)}`
  }.`
  return (
    <ChartFrame
      title={title}
      note={`One dot per sale; solid line: list price (100%)${
        zipFigure === null
          ? '. No ZIP figure to compare with.'
          : `; dashed line: ZIP ${benchmark!.zip_code} average ${formatPercent(zipFigure)} (Redfin).`
      }`}
    >
      <svg viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`} role="img" aria-label={description} className="h-auto w-full">
        <text x={CHART_PAD.left - 4} y={y(high) + 4} textAnchor="end" className="fill-slate-600 text-[10px]">
          {high}%
        </text>
        <text x={CHART_PAD.left - 4} y={y(low)} textAnchor="end" className="fill-slate-600 text-[10px]">
          {low}%
        </text>
        <line
          x1={CHART_PAD.left}
          x2={CHART_WIDTH - CHART_PAD.right}
          y1={y(100)}
          y2={y(100)}
          strokeWidth={1}
          className="stroke-slate-400"
        />
        {zipFigure !== null && (
          <line
            x1={CHART_PAD.left}
            x2={CHART_WIDTH - CHART_PAD.right}
            y1={y(zipFigure)}
            y2={y(zipFigure)}
            strokeDasharray="4 3"
            strokeWidth={1.5}
            className="stroke-slate-900"
          />
        )}
        {points.map((point, index) => {
          const above = zipFigure === null ? point.ratio >= 100 : point.ratio >= zipFigure
          return (
            <circle
              key={point.sale.id}
              cx={CHART_PAD.left + index * slot + slot / 2}
              cy={y(point.ratio)}
              r={4}
              className={above ? 'fill-green-600' : 'fill-red-500'}
            />
          )
        })}
        <text x={CHART_PAD.left} y={CHART_HEIGHT - 8} className="fill-slate-600 text-[10px]">
          {formatDate(points[0]!.sale.close_date)}
        </text>
        <text
          x={CHART_WIDTH - CHART_PAD.right}
          y={CHART_HEIGHT - 8}
          textAnchor="end"
          className="fill-slate-600 text-[10px]"
        >
          {formatDate(points.at(-1)!.sale.close_date)}
        </text>
      </svg>
    </ChartFrame>
  )
}

/** "2026-04-01" → "Q2 2026". */
export function quarterLabel(quarterStart: string): string {
  const [year, month] = quarterStart.split('-').map(Number) as [number, number]
  return `Q${Math.floor((month - 1) / 3) + 1} ${year}`
}

/** Closed sales per calendar quarter over the metrics window (bars, with the count on each). */
function QuarterlySalesChart({ quarters }: { quarters: QuarterSales[] }) {
  const title = 'Closed sales per quarter'
  if (quarters.length === 0) return <ChartFrame title={title} note="No closed sales in the window." />
  const max = Math.max(...quarters.map((quarter) => quarter.closed_sales))
  const plotWidth = CHART_WIDTH - CHART_PAD.right - 8
  const plotHeight = CHART_HEIGHT - CHART_PAD.top - CHART_PAD.bottom
  const slot = plotWidth / quarters.length
  const base = CHART_PAD.top + plotHeight
  return (
    <ChartFrame title={title} note="Quarters without a sale are left out.">
      <svg
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-label={quarters
          .map((quarter) => `${quarterLabel(quarter.quarter_start)}: ${quarter.closed_sales}`)
          .join('; ')}
        className="h-auto w-full"
      >
        <line x1={8} x2={CHART_WIDTH - CHART_PAD.right} y1={base} y2={base} className="stroke-slate-300" />
        {quarters.map((quarter, index) => {
          const height = Math.max(2, (quarter.closed_sales / max) * (plotHeight - 12))
          const x = 8 + index * slot
          return (
            <g key={quarter.quarter_start}>
              <rect
                x={x + slot * 0.15}
                width={slot * 0.7}
                y={base - height}
                height={height}
                className="fill-blue-600"
              />
              <text x={x + slot / 2} y={base - height - 3} textAnchor="middle" className="fill-slate-800 text-[10px]">
                {quarter.closed_sales}
              </text>
              <text x={x + slot / 2} y={CHART_HEIGHT - 8} textAnchor="middle" className="fill-slate-600 text-[9px]">
                {quarterLabel(quarter.quarter_start)}
              </text>
            </g>
          )
        })}
      </svg>
    </ChartFrame>
  )
}

function ChartFrame({ title, note, children }: { title: string; note: string; children?: ReactNode }) {
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="text-sm font-semibold text-slate-800">{title}</figcaption>
      {children && <div className="mt-2">{children}</div>}
      <p className="mt-2 text-xs text-slate-600">{note}</p>
    </figure>
  )
}

function Rating({ rating, reviews }: { rating: number | null; reviews: number }) {
  if (rating === null) return <p className="mt-2 text-sm text-slate-700">No rating yet</p>
  const filled = Math.floor(Number(rating))
  return (
    <p className="mt-2 flex items-center gap-2 text-sm text-slate-700">
      <span role="img" aria-label={`Rated ${Number(rating).toFixed(1)} out of 5`} className="flex">
        {Array.from({ length: 5 }, (_, index) => (
          <svg
            key={index}
            aria-hidden="true"
            viewBox="0 0 20 20"
            data-filled={index < filled}
            className={`h-5 w-5 ${index < filled ? 'fill-amber-500' : 'fill-slate-300'}`}
          >
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

/**
 * The agent's figures next to their primary ZIP's market figures (Redfin), with the difference ("+1.8 pts vs ZIP
 * average"). The agent's cells open the sales behind them.
 */
function MarketComparison({ figures, benchmark }: { figures: FiguresRow | null; benchmark: BenchmarkRow }) {
  const area = [benchmark.city, benchmark.state].filter(Boolean).join(', ')
  const rows: { measure: string; agent: ReactNode; zip: string; difference: string | null }[] = [
    {
      measure: 'Sale price (listing side)',
      agent:
        figures && figures.listing_price_min !== null && figures.listing_price_max !== null ? (
          <>
            <FigureLink figures={figures} metric="listing_price_min" /> –{' '}
            <FigureLink figures={figures} metric="listing_price_max" /> (range)
          </>
        ) : (
          '—'
        ),
      zip: `${formatUsd(benchmark.median_sale_price)} (median)`,
      difference: null,
    },
    {
      measure: 'Sale-to-list (mean, listing side)',
      agent: figures ? <FigureLink figures={figures} metric="sale_to_list_mean" /> : '—',
      zip: `${formatPercent(benchmark.avg_sale_to_list_percent)} (average)`,
      difference: figures ? figureDisplay(figures, 'sale_to_list_mean').vsZip : null,
    },
    {
      measure: 'Buyers paid vs list (mean)',
      agent: figures ? <FigureLink figures={figures} metric="buyer_paid_to_list_mean" /> : '—',
      zip: `${formatPercent(benchmark.avg_sale_to_list_percent)} (average)`,
      difference: figures ? figureDisplay(figures, 'buyer_paid_to_list_mean').vsZip : null,
    },
    {
      measure: 'Days on market (median)',
      agent: figures ? <FigureLink figures={figures} metric="days_on_market_median" /> : '—',
      zip: formatDays(benchmark.median_dom),
      difference: figures ? figureDisplay(figures, 'days_on_market_median').vsZip : null,
    },
  ]
  return (
    <section aria-labelledby="market-title">
      <h2 id="market-title" className="text-xl font-semibold">
        Compared with the market in {benchmark.zip_code}
        {area ? ` (${area})` : ''}
      </h2>
      <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full min-w-[32rem] text-left text-sm">
          <caption className="sr-only">The agent's figures next to the ZIP code's market figures</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Measure
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                This agent
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                ZIP {benchmark.zip_code}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.measure} className="border-t border-slate-200">
                <th scope="row" className="px-3 py-2 font-medium">
                  {row.measure}
                </th>
                <td className="px-3 py-2 text-right">{row.agent}</td>
                <td className="px-3 py-2 text-right">{row.zip}</td>
                <td className="px-3 py-2 text-right">{row.difference ?? '—'}</td>
              </tr>
            ))}
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

/** A figure's value as a link to the sales behind it. */
export function FigureLink({ figures, metric }: { figures: FiguresRow; metric: FigureMetric }) {
  const figure = figureDisplay(figures, metric)
  return (
    <a
      href={figure.href}
      aria-label={`${figure.label}: ${figure.value}. The sales behind this figure`}
      className="font-semibold underline decoration-slate-300 underline-offset-4 hover:text-blue-800"
    >
      {figure.value}
    </a>
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
