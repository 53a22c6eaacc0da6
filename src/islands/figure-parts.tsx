/**
 * Pieces every page with figures shows the same way: a figure's row (label, value linking to the sales behind it, n,
 * interval, ZIP difference, small-sample note), a figure's value as a link, the "Data as of" line and the sale-to-list
 * chart. Their own module so the compare island loads these and not the whole profile.
 */
import type { ReactNode } from 'react'

import type { BenchmarkRow, FiguresRow, RecentSale } from '../lib/agent-profile'
import { formatDate, formatPercent, saleToListPercent } from '../lib/format'
import { dataAsOfText, figureDisplay } from '@shared/figure-display.ts'
import { METRICS, type FigureMetric } from '@shared/methodology.ts'
import { METHODOLOGY_PATH } from '@shared/urls.ts'

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

export const CHART_WIDTH = 320
export const CHART_HEIGHT = 160
export const CHART_PAD = { top: 12, right: 8, bottom: 28, left: 40 }

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
  // a ZIP average within two units of the view box of 100 % draws over the list-price line: the note says so
  const onListLine = zipFigure !== null && Math.abs(y(zipFigure) - y(100)) < 2
  return (
    <ChartFrame
      title={title}
      note={`One dot per sale; solid line: list price (100%)${
        zipFigure === null
          ? '. No ZIP figure to compare with.'
          : `; dashed line: ZIP ${benchmark!.zip_code} average ${formatPercent(zipFigure)} (Redfin)${
              onListLine ? ', drawn over the list-price line' : ''
            }.`
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

export function ChartFrame({ title, note, children }: { title: string; note: string; children?: ReactNode }) {
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-4">
      <figcaption className="text-sm font-semibold text-slate-800">{title}</figcaption>
      {children && <div className="mt-2">{children}</div>}
      <p className="mt-2 text-xs text-slate-600">{note}</p>
    </figure>
  )
}
