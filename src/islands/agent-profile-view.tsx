import type { ReactNode } from 'react'

import type {
  AgentProfile,
  AgentRow,
  BenchmarkRow,
  FiguresRow,
  QuarterSales,
  RecentSale,
  SaleCorrection,
} from '../lib/agent-profile'
import { DEMO_DATA_NOTICE } from '../lib/agent-profile'
import { ROLE_LABELS } from '@shared/methodology.ts'
import {
  CHART_HEIGHT,
  CHART_PAD,
  CHART_WIDTH,
  ChartFrame,
  DataAsOf,
  FigureLink,
  FigureRow,
  SaleToListChart,
} from './figure-parts'
import { formatDate, formatDays, formatPercent, formatUsd, initials, saleToListPercent } from '../lib/format'
import { FIGURE_GROUPS, figureDisplay, figuresWindowText, zipRankText } from '@shared/figure-display.ts'
import { rankingBadge } from '../lib/search-results'
import { METHODOLOGY_PATH, figureSalesUrl, zipUrl } from '@shared/urls.ts'
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
 * The agent profile as HTML: header with the ZIP rank, every figure per side (listing, buyer, both) with its n, window,
 * 95 % interval and difference from the ZIP, each opening the sales behind it; charts (sale-to-list of each recent sale
 * against the ZIP figure, closed sales per quarter) as plain SVG, the market comparison with the source's
 * attribution, recent sales and a details sidebar. Pure: rendered at build time for /agent/<id> and by the live
 * island for agents newer than the build. `actions` is the Share / Get Report island. The claim parts (claimed badge,
 * about, contact the owner hides, accepted corrections and their markers on the sale rows) come from
 * ./agent-claim-parts.
 */
export function AgentProfileView({ profile, actions }: { profile: AgentProfile; actions?: ReactNode }) {
  const { agent, figures, sales, benchmark, synthetic, quarters } = profile
  const place = [agent.city, agent.state].filter(Boolean).join(', ') || null
  const badge = figures ? rankingBadge(figures.zip_rank, figures.zip_agents) : null
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
            {figures ? (
              <>
                <p className="mt-1 text-sm text-slate-700">
                  Closed sales on either side of the deal, {figuresWindowText(figures)}. Every figure opens the sales
                  behind it.
                </p>
                <div className="mt-1">
                  <DataAsOf dataDate={figures.data_date} sources={figures.sources} />
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
                <caption className="sr-only">
                  The agent's {sales.length} most recent closed sales on either side, newest first
                </caption>
                <SalesTableHead className="bg-slate-50 text-slate-700" cellClassName="px-3 py-2 font-semibold" />
                <tbody>
                  {sales.map((sale) => {
                    const ratio = saleToListPercent(sale.list_price, sale.close_price)
                    return (
                      <tr key={`${sale.id}-${sale.side}`} className="border-t border-slate-200">
                        <th scope="row" className="px-3 py-2 font-medium">
                          {sale.address}
                          <span className="block text-xs font-normal text-slate-600" data-testid="sale-role">
                            {ROLE_LABELS[sale.role]}
                          </span>
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

/** "2026-04-01" → "Q2 2026". */
export function quarterLabel(quarterStart: string): string {
  const [year, month] = quarterStart.split('-').map(Number) as [number, number]
  return `Q${Math.floor((month - 1) / 3) + 1} ${year}`
}

/**
 * Closed sales per calendar quarter over the metrics window: one bar per quarter from zero, split into sales with the
 * listing side (bottom) and with the buyer side only (top), the count of sales on each bar.
 */
export function QuarterlySalesChart({ quarters }: { quarters: QuarterSales[] }) {
  const title = 'Closed sales per quarter'
  if (quarters.length === 0) return <ChartFrame title={title} note="No closed sales in the window." />
  const max = Math.max(...quarters.map((quarter) => quarter.closed_sales))
  const plotWidth = CHART_WIDTH - CHART_PAD.right - 8
  const plotHeight = CHART_HEIGHT - CHART_PAD.top - CHART_PAD.bottom
  const slot = plotWidth / quarters.length
  const base = CHART_PAD.top + plotHeight
  // bar heights are proportional to the counts: the axis starts at zero
  const scale = (count: number) => (count / max) * (plotHeight - 12)
  return (
    <ChartFrame
      title={title}
      note="Dark: sales with the listing side; light: buyer side only. Quarters without a sale are left out."
    >
      <svg
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        role="img"
        aria-label={quarters
          .map(
            (quarter) =>
              `${quarterLabel(quarter.quarter_start)}: ${quarter.closed_sales} (${quarter.listing_sales} listing side, ${quarter.buyer_sales} buyer side)`,
          )
          .join('; ')}
        className="h-auto w-full"
      >
        <line x1={8} x2={CHART_WIDTH - CHART_PAD.right} y1={base} y2={base} className="stroke-slate-300" />
        {quarters.map((quarter, index) => {
          const listing = scale(quarter.listing_sales)
          const total = Math.max(2, scale(quarter.closed_sales))
          const x = 8 + index * slot
          return (
            <g key={quarter.quarter_start} data-quarter={quarter.quarter_start}>
              <rect
                x={x + slot * 0.15}
                width={slot * 0.7}
                y={base - total}
                height={total}
                className="fill-blue-300"
                data-count={quarter.closed_sales}
              />
              <rect
                x={x + slot * 0.15}
                width={slot * 0.7}
                y={base - listing}
                height={listing}
                className="fill-blue-700"
                data-count={quarter.listing_sales}
              />
              <text x={x + slot / 2} y={base - total - 3} textAnchor="middle" className="fill-slate-800 text-[10px]">
                {quarter.closed_sales}
              </text>
              {/* two lines: "Q4 2023" on one line collides with its neighbours when two years of quarters are shown */}
              <text textAnchor="middle" className="fill-slate-600 text-[9px]">
                {quarterLabel(quarter.quarter_start)
                  .split(' ')
                  .map((part, line) => (
                    <tspan key={part} x={x + slot / 2} y={base + 11 + line * 10}>
                      {part}
                    </tspan>
                  ))}
              </text>
            </g>
          )
        })}
      </svg>
    </ChartFrame>
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
        {/* fits a 390 px screen: the measure names wrap instead of the table scrolling sideways without a cue */}
        <table className="w-full text-left text-sm">
          <caption className="sr-only">The agent's figures next to the ZIP code's market figures</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-2 py-2 font-semibold sm:px-3">
                Measure
              </th>
              <th scope="col" className="px-2 py-2 sm:px-3 text-right font-semibold">
                This agent
              </th>
              <th scope="col" className="px-2 py-2 sm:px-3 text-right font-semibold">
                ZIP {benchmark.zip_code}
              </th>
              <th scope="col" className="px-2 py-2 sm:px-3 text-right font-semibold">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.measure} className="border-t border-slate-200">
                <th scope="row" className="px-2 py-2 sm:px-3 font-medium">
                  {row.measure}
                </th>
                <td className="px-2 py-2 sm:px-3 text-right">{row.agent}</td>
                <td className="px-2 py-2 sm:px-3 text-right">{row.zip}</td>
                <td className="px-2 py-2 sm:px-3 text-right">{row.difference ?? '—'}</td>
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

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  )
}

export { DataAsOf, FigureLink, FigureRow, SaleToListChart }
