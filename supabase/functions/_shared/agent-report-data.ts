/**
 * Reads one agent's report figures with the service client and shapes them for renderAgentReportPdf: the agent row,
 * their figures per side (public.agent_figures, from the last refresh_agent_metrics run), their newest closed sales
 * and their primary ZIP's Redfin row. The figures are worded by the same rules as the site (./figure-display.ts), so
 * the PDF prints what the profile shows, and each one links to the sales behind it.
 */
import type { AgentReportData } from './agent-report.ts'
import { reportFigureParts } from './agent-report-figures.ts'
import { sourceLabel } from './figure-display.ts'
import type { Db } from './supabase.ts'
import { absoluteUrl, agentUrl } from './urls.ts'

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
  const [sales, benchmark] = await Promise.all([
    db
      .from('properties')
      .select('address, close_date, list_price, close_price, days_on_market, source, listing_key')
      .eq('agent_id', agentId)
      .eq('standard_status', 'Closed')
      .not('close_price', 'is', null)
      .order('close_date', { ascending: false, nullsFirst: false })
      .limit(REPORT_SALES_LIMIT),
    zipCode
      ? db.from('zip_market_benchmarks').select('*').eq('zip_code', zipCode).maybeSingle()
      : Promise.resolve({ data: null, error: null }),
  ])
  if (sales.error) throw new Error(`Could not read the sales: ${sales.error.message}`)
  if (benchmark.error) throw new Error(`Could not read the ZIP benchmark: ${benchmark.error.message}`)
  const demo = Boolean(agent.mls_id?.startsWith('DEMO-')) || sales.data.some((sale) => sale.source === 'demo')
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
    sales: sales.data.map((sale) => ({
      address: sale.address,
      closeDate: sale.close_date,
      role: 'List agent',
      listPrice: num(sale.list_price),
      closePrice: num(sale.close_price),
      daysOnMarket: sale.days_on_market,
      source: [sale.source, sale.listing_key].filter(Boolean).join(' ') || null,
    })),
    salesNote: null,
    sources: [
      demo
        ? 'Closed sales: generated demo data calibrated on Redfin ZIP figures (the agent is fictional).'
        : `Closed sales: the MLS listings imported into AgentInsight (${(figures?.sources ?? []).map(sourceLabel).join(', ') || 'no counted sales'}), credited to the listing and buyer agents.`,
      ...(zip ? [`ZIP market figures: ${zip.source}, month ending ${zip.period_end}.`] : []),
    ],
  }
}
