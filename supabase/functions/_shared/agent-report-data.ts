/**
 * Reads one agent's report figures with the service client and shapes them for renderAgentReportPdf: the agents row
 * (figures of the last refresh_agent_metrics run), their 10 newest closed sales and their primary ZIP's Redfin row.
 */
import type { AgentReportData } from './agent-report.ts'
import type { Db } from './supabase.ts'
import { absoluteUrl, agentUrl } from './urls.ts'

const num = (value: number | string | null) => (value === null ? null : Number(value))

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
  const { data: agent, error } = await db.from('agents').select('*').eq('id', agentId).maybeSingle()
  if (error) throw new Error(`Could not read the agent: ${error.message}`)
  if (!agent) return null
  const [sales, benchmark] = await Promise.all([
    db
      .from('properties')
      .select('address, close_date, list_price, close_price, days_on_market, source')
      .eq('agent_id', agentId)
      .eq('standard_status', 'Closed')
      .not('close_price', 'is', null)
      .order('close_date', { ascending: false, nullsFirst: false })
      .limit(10),
    agent.primary_zip_code
      ? db.from('zip_market_benchmarks').select('*').eq('zip_code', agent.primary_zip_code).maybeSingle()
      : Promise.resolve({ data: null, error: null }),
  ])
  if (sales.error) throw new Error(`Could not read the sales: ${sales.error.message}`)
  if (benchmark.error) throw new Error(`Could not read the ZIP benchmark: ${benchmark.error.message}`)
  const demo = Boolean(agent.mls_id?.startsWith('DEMO-')) || sales.data.some((sale) => sale.source === 'demo')
  const zip = benchmark.data
  return {
    generatedOn: today,
    sample: false,
    agent: {
      name: agent.name,
      brokerage: agent.brokerage,
      licenseNumber: agent.license_number,
      area:
        [agent.city, agent.state].filter(Boolean).join(', ') +
          (agent.primary_zip_code ? ` ${agent.primary_zip_code}` : '') || null,
      phone: agent.phone,
      email: agent.email,
      url: absoluteUrl(agentUrl(agent.id), siteUrl),
    },
    window:
      agent.metrics_window_start && agent.metrics_window_end
        ? { start: agent.metrics_window_start, end: agent.metrics_window_end }
        : null,
    metrics: {
      totalSales: agent.total_sales,
      saleToListAverage: num(agent.average_sale_to_list_ratio),
      saleToListMedian: num(agent.median_sale_to_list_ratio),
      saleToListN: agent.sale_to_list_sample_size,
      daysOnMarketAverage: num(agent.average_days_on_market),
      daysOnMarketMedian: num(agent.median_days_on_market),
      daysOnMarketN: agent.days_on_market_sample_size,
      priceMin: num(agent.price_range_min),
      priceMax: num(agent.price_range_max),
      ranking:
        agent.local_ranking !== null && agent.total_agents_in_area !== null
          ? `Ranked #${agent.local_ranking} of ${agent.total_agents_in_area} agents in ${agent.primary_zip_code} by closed sales.`
          : agent.ranking_note,
    },
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
        }
      : null,
    sales: sales.data.map((sale) => ({
      address: sale.address,
      closeDate: sale.close_date,
      listPrice: num(sale.list_price),
      closePrice: num(sale.close_price),
      daysOnMarket: sale.days_on_market,
    })),
    sources: [
      demo
        ? 'Closed sales: generated demo data calibrated on Redfin ZIP figures (the agent is fictional).'
        : 'Closed sales: the MLS listings imported into AgentInsight, counted for the listing agent.',
      ...(zip ? [`ZIP market figures: ${zip.source}, month ending ${zip.period_end}.`] : []),
    ],
  }
}
