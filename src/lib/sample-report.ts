/**
 * The sample report's invented figures (no real agent or market), shared by the /sample-report page and its PDF
 * (/sample-report.pdf), which is the same template as the report mailed after a request
 * (supabase/functions/_shared/agent-report.ts).
 */
import type { AgentReportData } from '@shared/agent-report.ts'

export const SAMPLE_AGENT = {
  name: 'Jordan Sample',
  brokerage: 'Example Realty Group',
  license: 'TX-0000000 (sample)',
  area: 'Austin, TX 78704',
  phone: '(555) 010-0199',
  email: 'jordan.sample@example.com',
}

/** USD prices, close dates `YYYY-MM-DD`, days on market in days. */
export const SAMPLE_SALES = [
  { address: '1204 Example Ave', closeDate: '2026-10-18', listPrice: 549000, closePrice: 561000, daysOnMarket: 9 },
  { address: '88 Sample Ct', closeDate: '2026-09-30', listPrice: 725000, closePrice: 710000, daysOnMarket: 27 },
  { address: '415 Placeholder Ln', closeDate: '2026-09-12', listPrice: 489000, closePrice: 489000, daysOnMarket: 14 },
  { address: '3107 Demo Dr', closeDate: '2026-08-25', listPrice: 1050000, closePrice: 1012000, daysOnMarket: 41 },
  { address: '56 Illustration St', closeDate: '2026-08-02', listPrice: 399000, closePrice: 412500, daysOnMarket: 6 },
]

/** The sample as report data; `generatedOn` is the build day, `siteUrl` the site's origin. */
export function sampleReportData(generatedOn: string, siteUrl: string | URL): AgentReportData {
  return {
    generatedOn,
    sample: true,
    agent: {
      name: SAMPLE_AGENT.name,
      brokerage: SAMPLE_AGENT.brokerage,
      licenseNumber: SAMPLE_AGENT.license,
      area: SAMPLE_AGENT.area,
      phone: SAMPLE_AGENT.phone,
      email: SAMPLE_AGENT.email,
      url: new URL('/sample-report', siteUrl).href,
    },
    window: { start: '2025-11-01', end: '2026-10-31' },
    metrics: {
      totalSales: 24,
      saleToListAverage: 99.2,
      saleToListMedian: 99.6,
      saleToListN: 24,
      daysOnMarketAverage: 21,
      daysOnMarketMedian: 17,
      daysOnMarketN: 24,
      priceMin: 385000,
      priceMax: 1050000,
      ranking: 'Ranked #3 of 41 agents in 78704 by closed sales (sample).',
    },
    zip: {
      zipCode: '78704',
      area: 'Austin, TX',
      medianSalePrice: 598000,
      saleToListPercent: 97.8,
      medianDaysOnMarket: 34,
      homesSold: 61,
      periodEnd: '2026-10-31',
      attribution: 'Sample figures in the layout of the Redfin Data Center market tracker; not real market data.',
    },
    sales: SAMPLE_SALES,
    sources: ['Sample report: every figure is invented to show the layout; none describes a real agent or market.'],
  }
}
