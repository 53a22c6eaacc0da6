/**
 * The figure part of the agent report (PDF), worded by the same rules as the site (./figure-display.ts), so the PDF
 * prints what the profile shows and each figure links to the sales behind it. Pure: the mailed report
 * (./agent-report-data.ts) and the sample report both go through it.
 */
import type { AgentReportData, ReportFigure } from './agent-report.ts'
import type { Database } from './database.types.ts'
import {
  FIGURE_GROUPS,
  dataAsOfText,
  figureDisplay,
  figureNumber,
  formatFigure,
  zipRankText,
} from './figure-display.ts'
import { formatDays, formatPercent, formatUsd } from './format.ts'
import { METHODOLOGY_VERSION, type FigureMetric } from './methodology.ts'
import { METHODOLOGY_PATH, absoluteUrl } from './urls.ts'

type Figures = Database['public']['Tables']['agent_figures']['Row']
type Benchmark = Database['public']['Tables']['zip_market_benchmarks']['Row']

/**
 * The figure part of a report from an agent's figures row and their primary ZIP's benchmark: the data date, the
 * headline boxes, every figure per side with its n, interval and ZIP difference (each linking to its sales on
 * `siteUrl`), the rank and the ZIP comparison rows. Pure; the sample report goes through it too.
 */
export function reportFigureParts(
  figures: Figures | null,
  benchmark: Benchmark | null,
  siteUrl: string | URL,
): Pick<AgentReportData, 'window' | 'dataAsOf' | 'methodology' | 'highlights' | 'figureGroups' | 'ranking'> & {
  zipRows: [string, string, string, string][]
} {
  const methodology = { version: METHODOLOGY_VERSION, url: absoluteUrl(METHODOLOGY_PATH, siteUrl) }
  if (!figures)
    return {
      window: null,
      dataAsOf: dataAsOfText(null, []),
      methodology,
      highlights: [],
      figureGroups: [],
      ranking: null,
      zipRows: [],
    }
  const figure = (metric: FigureMetric): ReportFigure => {
    const display = figureDisplay(figures, metric)
    return {
      label: display.label,
      value: display.value,
      detail: [display.nText, display.interval, display.vsZip, display.smallSample].filter(Boolean).join(' · '),
      url: absoluteUrl(display.href, siteUrl),
    }
  }
  const box = (label: string, metric: FigureMetric, note: string) => ({
    label,
    value: figureDisplay(figures, metric).value,
    note,
    url: absoluteUrl(figureDisplay(figures, metric).href, siteUrl),
  })
  const saleToList = figureDisplay(figures, 'sale_to_list_median')
  const daysOnMarket = figureDisplay(figures, 'days_on_market_median')
  const rank = zipRankText(figures)
  const zipFigure = (metric: FigureMetric): string =>
    figureNumber(figures, metric) === null ? '-' : figure(metric).value
  return {
    window: { start: figures.window_start, end: figures.window_end },
    dataAsOf: dataAsOfText(figures.data_date, figures.sources),
    methodology,
    highlights: [
      box('Sales (both sides)', 'total_sales', `${figures.listing_sales} listing · ${figures.buyer_sales} buyer side`),
      box('Sale-to-list (median)', 'sale_to_list_median', `${saleToList.nText} · listing side`),
      box('Days on market (median)', 'days_on_market_median', daysOnMarket.nText),
      box('Volume (both sides)', 'total_volume', `${formatFigure('total_sides', figures.total_sides)} sides`),
    ],
    figureGroups: [
      ...FIGURE_GROUPS.map((group) => {
        const count = figureDisplay(figures, group.count)
        return {
          title: group.title,
          subtitle: `${count.value} ${count.n === 1 ? 'sale' : 'sales'} ${group.who}.`,
          figures: count.n === 0 ? [] : group.metrics.map(figure),
        }
      }),
      ...(figures.primary_zip_code
        ? [
            {
              title: `Rank in ${figures.primary_zip_code}`,
              subtitle: `${rank.ranked ? `Ranked ${rank.text}` : rank.text}.`,
              figures: [figure('zip_sides'), figure('zip_market_share')],
            },
          ]
        : []),
    ],
    ranking: rank.ranked ? `Ranked ${rank.text}.` : `${rank.text}.`,
    zipRows: benchmark
      ? [
          [
            'Sale price (listing side)',
            figures.listing_price_min === null || figures.listing_price_max === null
              ? '-'
              : `${formatUsd(figures.listing_price_min)} - ${formatUsd(figures.listing_price_max)}`,
            `${formatUsd(benchmark.median_sale_price)} (median)`,
            '-',
          ],
          [
            'Sale-to-list (mean)',
            zipFigure('sale_to_list_mean'),
            `${formatPercent(benchmark.avg_sale_to_list_percent)} (average)`,
            figureDisplay(figures, 'sale_to_list_mean').vsZip ?? '-',
          ],
          [
            'Buyers paid vs list (mean)',
            zipFigure('buyer_paid_to_list_mean'),
            `${formatPercent(benchmark.avg_sale_to_list_percent)} (average)`,
            figureDisplay(figures, 'buyer_paid_to_list_mean').vsZip ?? '-',
          ],
          [
            'Days on market (median)',
            zipFigure('days_on_market_median'),
            formatDays(benchmark.median_dom),
            daysOnMarket.vsZip ?? '-',
          ],
        ]
      : [],
  }
}
