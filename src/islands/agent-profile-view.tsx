import type { ReactNode } from 'react'

import type {
  AgentProfile,
  AgentRow,
  BenchmarkRow,
  QuarterSales,
  RecentSale,
  SaleCorrection,
} from '../lib/agent-profile'
import { DEMO_DATA_NOTICE } from '../lib/agent-profile'
import {
  formatCount,
  formatDate,
  formatDays,
  formatPercent,
  formatUsd,
  initials,
  saleToListPercent,
} from '../lib/format'
import { rankingBadge } from '../lib/search-results'
import { zipUrl } from '@shared/urls.ts'
import { SalesTableHead } from './sales-table-head'
import {
  AcceptedCorrections,
  AgentAbout,
  AgentClaimStatus,
  SaleCorrectionMarkers,
  visibleContact,
} from './agent-claim-parts'

/** "Jan 5, 2026 – Dec 31, 2026", or 'no closed sales yet' without a metrics window. */
export function metricsWindowText(agent: Pick<AgentRow, 'metrics_window_start' | 'metrics_window_end'>): string {
  return agent.metrics_window_start && agent.metrics_window_end
    ? `${formatDate(agent.metrics_window_start)} – ${formatDate(agent.metrics_window_end)}`
    : 'no closed sales yet'
}

/**
 * The agent profile as HTML: header, the four metric cards (each with n and window), the ranking badge, charts
 * (sale-to-list of each recent sale against the ZIP figure, closed sales per quarter) as plain SVG, the market
 * comparison with the source's attribution, recent sales and a details sidebar. Pure: rendered at build time for
 * /agent/<id> and by the live island for agents newer than the build. `actions` is the Share / Get Report island.
 */
export function AgentProfileView({ profile, actions }: { profile: AgentProfile; actions?: ReactNode }) {
  const { agent, sales, benchmark, synthetic, quarters } = profile
  const place = [agent.city, agent.state].filter(Boolean).join(', ') || null
  const windowText = metricsWindowText(agent)
  const badge = rankingBadge(agent.local_ranking, agent.total_agents_in_area)
  const contact = visibleContact(agent)

  return (
    <div>
      {synthetic && <p className="mb-6 rounded-md bg-amber-50 px-4 py-2 text-sm text-amber-950">{DEMO_DATA_NOTICE}</p>}
      {/* stacked on phones so Share and Get Report never sit on the name; a fixed-size avatar keeps CLS at 0 */}
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
            <AgentClaimStatus agent={agent} />
            <Rating rating={agent.rating} reviews={agent.review_count} />
            {badge && (
              <p className="mt-2">
                <span
                  data-testid="ranking-badge"
                  data-tone={badge.tone}
                  className="inline-block rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-800"
                >
                  {badge.label}
                  {agent.primary_zip_code ? ` in ${agent.primary_zip_code}` : ''}
                </span>
              </p>
            )}
          </div>
        </div>
        {/* wraps on the narrowest phones rather than pushing the page sideways; static HTML, so no shift */}
        <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_18rem]">
        <div className="min-w-0 space-y-8">
          <AgentAbout agent={agent} />
          <section aria-labelledby="metrics-title">
            <h2 id="metrics-title" className="text-xl font-semibold">
              Performance
            </h2>
            <p className="mt-1 text-sm text-slate-700">Closed sales as listing agent, {windowText}.</p>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2">
              <MetricCard
                label="Sale-to-list price"
                value={formatPercent(agent.average_sale_to_list_ratio)}
                detail={medianText(agent.median_sale_to_list_ratio, formatPercent)}
                n={agent.sale_to_list_sample_size}
                windowText={windowText}
              />
              <MetricCard
                label="Days on market"
                value={formatDays(agent.average_days_on_market)}
                detail={medianText(agent.median_days_on_market, formatDays)}
                n={agent.days_on_market_sample_size}
                windowText={windowText}
              />
              <MetricCard
                label="Total sales"
                value={formatCount(agent.total_sales)}
                detail="Closed sales"
                n={agent.total_sales}
                windowText={windowText}
              />
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

          <section aria-labelledby="charts-title">
            <h2 id="charts-title" className="text-xl font-semibold">
              Sales at a glance
            </h2>
            <div className="mt-4 grid gap-4 md:grid-cols-2">
              <SaleToListChart sales={sales} benchmark={benchmark} />
              <QuarterlySalesChart quarters={quarters} />
            </div>
          </section>

          {benchmark && <MarketComparison agent={agent} benchmark={benchmark} />}

          <RecentSales sales={sales} corrections={profile.corrections ?? []} />
          <AcceptedCorrections corrections={profile.corrections ?? []} />
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
                {contact.phone && (
                  <a href={`tel:${contact.phone.replace(/[^+\d]/g, '')}`} className="text-blue-700 underline">
                    {contact.phone}
                  </a>
                )}
                {contact.email && (
                  <a href={`mailto:${contact.email}`} className="break-all text-blue-700 underline">
                    {contact.email}
                  </a>
                )}
                {!contact.phone && !contact.email && 'Not on file'}
              </span>
            </Detail>
          </dl>
          {agent.primary_zip_code && (
            <a
              href={zipUrl(agent.primary_zip_code)}
              className="mt-4 inline-block text-sm font-medium text-blue-700 underline"
            >
              Top agents in {agent.primary_zip_code}
            </a>
          )}
        </aside>
      </div>
    </div>
  )
}

function RecentSales({ sales, corrections }: { sales: RecentSale[]; corrections: readonly SaleCorrection[] }) {
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
                          <SaleCorrectionMarkers
                            corrections={corrections.filter((correction) => correction.property_id === sale.id)}
                          />
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

/** "Median <value>" for a metric card, or null when there is no median. */
function medianText(value: number | null, format: (value: number) => string): string | null {
  return value !== null ? `Median ${format(value)}` : null
}

const CHART_WIDTH = 320
const CHART_HEIGHT = 160
const CHART_PAD = { top: 12, right: 8, bottom: 28, left: 40 }

/**
 * Each recent sale's sale-to-list percentage (bars, oldest left) against the ZIP's Redfin average sale-to-list
 * (dashed line). Plain SVG with a text alternative; scales from the data, never from fixed figures.
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
  const values = [...points.map((point) => point.ratio), ...(zipFigure === null ? [] : [zipFigure])]
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
      note={
        zipFigure === null
          ? 'No ZIP figure to compare with.'
          : `Dashed line: ZIP ${benchmark!.zip_code} average ${formatPercent(zipFigure)} (Redfin).`
      }
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
          y1={y(low)}
          y2={y(low)}
          className="stroke-slate-300"
        />
        {points.map((point, index) => {
          const top = y(point.ratio)
          const above = zipFigure === null ? point.ratio >= 100 : point.ratio >= zipFigure
          return (
            <rect
              key={point.sale.id}
              x={CHART_PAD.left + index * slot + slot * 0.15}
              width={slot * 0.7}
              y={top}
              height={Math.max(1, y(low) - top)}
              className={above ? 'fill-green-600' : 'fill-red-500'}
            />
          )
        })}
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
    agent.price_range_min !== null && agent.price_range_max !== null
      ? `${formatUsd(agent.price_range_min)} – ${formatUsd(agent.price_range_max)} (range)`
      : '—'
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
              <th scope="col" className="px-3 py-2 font-semibold">
                Measure
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                This agent
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                ZIP {benchmark.zip_code}
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 font-medium">
                Sale price
              </th>
              <td className="px-3 py-2 text-right">{agentRange}</td>
              <td className="px-3 py-2 text-right">{formatUsd(benchmark.median_sale_price)} (median)</td>
            </tr>
            <tr className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 font-medium">
                Average sale-to-list
              </th>
              <td className="px-3 py-2 text-right">{formatPercent(agent.average_sale_to_list_ratio)}</td>
              <td className="px-3 py-2 text-right">{formatPercent(benchmark.avg_sale_to_list_percent)}</td>
            </tr>
            <tr className="border-t border-slate-200">
              <th scope="row" className="px-3 py-2 font-medium">
                Median days on market
              </th>
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
