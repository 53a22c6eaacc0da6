import type { APIRoute } from 'astro'

import { sampleReportData } from '../lib/sample-report'
import { renderAgentReportPdf } from '@shared/agent-report.ts'

/** /sample-report.pdf: the sample figures through the same PDF template as the mailed agent report, dated at build. */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('sample-report.pdf needs `site` in astro.config.mjs')
  const pdf = await renderAgentReportPdf(sampleReportData(new Date().toISOString().slice(0, 10), site))
  return new Response(new Blob([pdf as Uint8Array<ArrayBuffer>]), { headers: { 'Content-Type': 'application/pdf' } })
}
