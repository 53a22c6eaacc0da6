/**
 * Reads one agent's report figures with the service client and shapes them for renderAgentReportPdf: the agent row,
 * their figures per side (public.agent_figures, from the last refresh_agent_metrics run), the sales behind them
 * (public.agent_figure_sales, the REPORT_SALES_LIMIT newest with either side) and their primary ZIP's Redfin row. The figures are worded by the same rules as the site (./figure-display.ts), so
 * the PDF prints what the profile shows, and each one links to the sales behind it.
 */
import type { AgentReportData } from './agent-report.ts'
import { reportFigureParts } from './agent-report-figures.ts'
import { sourceLabel } from './figure-display.ts'
import type { AgentFigureSales } from './figures-contract.ts'
import { ROLE_LABELS } from './methodology.ts'
import type { Db } from './supabase.ts'
import { absoluteUrl, agentUrl, figureSalesUrl } from './urls.ts'

const num = (value: number | string | null) => (value === null ? null : Number(value))

/** How many sales the report lists (the newest); the rest are one link away. */
export const REPORT_SALES_LIMIT = 100

/**
 * @param today `YYYY-MM-DD` printed as the report date.
 * @returns null when no agent has this id. @throws the PostgREST error message of a failed read.
 */
export async function loadAgentReportData(
  db: Db,
  agentId: string,
  siteUrl: string,
  today: string,
): Promise<AgentReportData | null> {
  const [found, figuresRead] = await Promise.all([
    db.from('agents').select('*').eq('id', agentId).maybeSingle(),
    db.from('agent_figures').select('*').eq('agent_id', agentId).maybeSingle(),
  ])
  if (found.error) throw new Error(`Could not read the agent: ${found.error.message}`)
  if (figuresRead.error) throw new Error(`Could not read the agent's figures: ${figuresRead.error.message}`)
  const agent = found.data
  if (!agent) return null
  const figures = figuresRead.data
  const zipCode = figures?.primary_zip_code ?? agent.primary_zip_code
  const [behind, benchmark] = await Promise.all([
    // the sales behind the figures: every sale with either side, newest first (the rows of total_sales)
    db.rpc('agent_figure_sales', { agent_id: agentId, metric: 'total_sales', max_rows: REPORT_SALES_LIMIT }),
    zipCode
      ? db.from('zip_market_benchmarks').select('*').eq('zip_code', zipCode).maybeSingle()
      : Promise.resolve({ data: null, error: null }),
  ])
  if (behind.error) throw new Error(`Could not read the sales: ${behind.error.message}`)
  if (benchmark.error) throw new Error(`Could not read the ZIP benchmark: ${benchmark.error.message}`)
  const sales = behind.data as unknown as AgentFigureSales
  const demo = Boolean(agent.mls_id?.startsWith('DEMO-')) || sales.rows.some((sale) => sale.source === 'demo')
  const zip = benchmark.data
  const parts = reportFigureParts(figures, zip, siteUrl)
  return {
    generatedOn: today,
    sample: false,
    agent: {
      name: agent.name,
      brokerage: agent.brokerage,
      licenseNumber: agent.license_number,
      area: [agent.city, agent.state].filter(Boolean).join(', ') + (zipCode ? ` ${zipCode}` : '') || null,
      phone: agent.phone,
      email: agent.email,
      url: absoluteUrl(agentUrl(agent.id), siteUrl),
    },
    window: parts.window,
    dataAsOf: parts.dataAsOf,
    methodology: parts.methodology,
    highlights: parts.highlights,
    figureGroups: parts.figureGroups,
    ranking: parts.ranking,
    zip: zip
      ? {
          zipCode: zip.zip_code,
          area: [zip.city, zip.state].filter(Boolean).join(', ') || null,
          medianSalePrice: num(zip.median_sale_price),
          saleToListPercent: num(zip.avg_sale_to_list_percent),
          medianDaysOnMarket: num(zip.median_dom),
          homesSold: zip.homes_sold,
          periodEnd: zip.period_end,
          attribution: zip.attribution,
          rows: parts.zipRows,
        }
      : null,
    sales: sales.rows.map((sale) => ({
      address: sale.address,
      closeDate: sale.close_date,
      role: `${ROLE_LABELS[sale.role]}${sale.credit < 1 ? ' (half)' : ''}`,
      listPrice: sale.list_price,
      closePrice: sale.close_price,
      daysOnMarket: sale.days_on_market,
      source: [sale.source, sale.source_record_id].filter(Boolean).join(' ') || null,
    })),
    salesNote: sales.truncated
      ? `The ${sales.rows.length} newest of ${sales.total_rows} sales; all of them, with a CSV: ${absoluteUrl(figureSalesUrl(agent.id, 'total_sales'), siteUrl)}`
      : null,
    sources: [
      demo
        ? 'Closed sales: generated demo data calibrated on Redfin ZIP figures (the agent is fictional).'
        : `Closed sales: the MLS listings imported into AgentInsight (${(figures?.sources ?? []).map(sourceLabel).join(', ') || 'no counted sales'}), credited to the listing and buyer agents.`,
      ...(zip ? [`ZIP market figures: ${zip.source}, month ending ${zip.period_end}.`] : []),
    ],
  }
}
