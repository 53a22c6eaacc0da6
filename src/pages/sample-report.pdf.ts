/**
 * /sample-report.pdf: the sample report as a real PDF file (issue 12: Download PDF downloads a branded, dated file
 * instead of opening the print dialog). Built once at build time with PDFKit from the same content as the page
 * (~/lib/sample-report); dated with the build date, like the page.
 */
import type { APIRoute } from 'astro'
import PDFDocument from 'pdfkit'

import {
  SAMPLE_AGENT as agent,
  SAMPLE_GAUGES,
  SAMPLE_MARKET_ANALYSIS,
  SAMPLE_METRICS,
  SAMPLE_REPORT_INFO,
  SAMPLE_SALES,
  SAMPLE_SUMMARY,
  reportDate,
  saleToListPercent,
  usd,
} from '~/lib/sample-report'

const BRAND = '#1d4ed8'
const BRAND_DARK = '#1e3a8a'
const ACCENT = '#fbbf24'
const INK = '#0f172a'
const MUTED = '#475569'
const LINE = '#e2e8f0'
const GAUGE_COLOURS = { Excellent: '#15803d', Good: BRAND, Fair: '#ca8a04', Poor: '#b91c1c' } as const

/** Renders the report; resolves with the PDF bytes. */
export function renderSampleReportPdf(date: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: { top: 110, bottom: 60, left: 54, right: 54 },
    info: {
      Title: `Agent Performance Report - ${agent.name} (sample)`,
      Author: 'AgentInsight',
      Subject: 'Sample agent performance report; all figures are illustrative',
      CreationDate: date,
    },
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const dated = reportDate.format(date)
  const left = doc.page.margins.left
  const width = doc.page.width - left - doc.page.margins.right

  const header = () => {
    doc.save()
    doc.rect(0, 0, doc.page.width, 80).fill(BRAND)
    // the logo mark (public/logo.svg), drawn at 40 pt
    doc.translate(left, 20).scale(40 / 64)
    doc.roundedRect(0, 0, 64, 64, 14).fill('#ffffff')
    doc.path('M12 30 32 13l20 17').lineWidth(5).lineCap('round').lineJoin('round').stroke(BRAND)
    doc.path('M18 30v20h28V30').lineWidth(5).stroke(BRAND)
    doc.path('M25 44v-5m7 5v-9m7 9V31').lineWidth(4.5).lineCap('round').stroke(ACCENT)
    doc.restore()
    doc.font('Helvetica-Bold').fontSize(18).fillColor('#ffffff').text('AgentInsight', left + 52, 30, { lineBreak: false })
    doc.font('Helvetica').fontSize(10).fillColor('#dbeafe').text(`Report date: ${dated}`, left, 34, { width, align: 'right' })
    // the footer sits in the bottom margin: lift the margin while writing it, or PDFKit would start a new page
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    doc.font('Helvetica').fontSize(8).fillColor(MUTED)
    doc.text(`AgentInsight sample report · all figures are illustrative · ${dated}`, left, doc.page.height - 40, { width, align: 'center', lineBreak: false })
    doc.page.margins.bottom = bottom
    doc.x = left
    doc.y = doc.page.margins.top
  }
  doc.on('pageAdded', header)
  header()

  const heading = (text: string) => {
    if (doc.y > doc.page.height - 160) doc.addPage()
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(14).fillColor(BRAND_DARK).text(text, left, doc.y)
    doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).lineWidth(1).stroke(LINE)
    doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor(INK)
  }

  doc.font('Helvetica-Bold').fontSize(9).fillColor('#92400e').text('SAMPLE REPORT: ALL FIGURES ARE ILLUSTRATIVE')
  doc.moveDown(0.3).font('Helvetica-Bold').fontSize(24).fillColor(INK).text('Agent Performance Report')
  doc.font('Helvetica').fontSize(12).fillColor(MUTED).text(`${agent.name} · ${agent.brokerage} · ${agent.area}`)

  heading('Summary')
  doc.text(SAMPLE_SUMMARY, { width })

  heading('Performance at a glance')
  const gaugeTop = doc.y + 4
  const cell = width / SAMPLE_GAUGES.length
  SAMPLE_GAUGES.forEach((gauge, index) => {
    const cx = left + cell * index + cell / 2
    const cy = gaugeTop + 42
    const r = 34
    doc.circle(cx, cy, r).lineWidth(8).stroke(LINE)
    const sweep = (Math.min(100, Math.max(0, gauge.percentOfMax)) / 100) * Math.PI * 2
    if (sweep > 0) {
      const start = -Math.PI / 2
      const end = start + sweep
      const large = sweep > Math.PI ? 1 : 0
      const x1 = cx + r * Math.cos(start)
      const y1 = cy + r * Math.sin(start)
      const x2 = cx + r * Math.cos(end - 0.0001)
      const y2 = cy + r * Math.sin(end - 0.0001)
      doc.path(`M${x1} ${y1} A${r} ${r} 0 ${large} 1 ${x2} ${y2}`).lineWidth(8).lineCap('round').stroke(GAUGE_COLOURS[gauge.band])
    }
    doc.font('Helvetica-Bold').fontSize(12).fillColor(INK).text(gauge.display, cx - r, cy - 6, { width: r * 2, align: 'center' })
    doc.font('Helvetica-Bold').fontSize(10).fillColor(GAUGE_COLOURS[gauge.band]).text(gauge.band, cx - cell / 2, cy + r + 10, { width: cell, align: 'center' })
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(gauge.label, cx - cell / 2, cy + r + 24, { width: cell, align: 'center' })
    doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(gauge.caption, cx - cell / 2 + 6, cy + r + 38, { width: cell - 12, align: 'center' })
  })
  doc.x = left
  doc.y = gaugeTop + 150

  heading('Key metrics')
  for (const metric of SAMPLE_METRICS) {
    const y = doc.y
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text(metric.label, left, y, { width: width * 0.35 })
    doc.font('Helvetica-Bold').text(metric.value, left + width * 0.35, y, { width: width * 0.15 })
    doc.font('Helvetica').fillColor(MUTED).text(metric.note, left + width * 0.5, y, { width: width * 0.3 })
    doc.fillColor(INK).text(`${metric.percentile}th pct · ${metric.band}`, left + width * 0.8, y, { width: width * 0.2, align: 'right' })
    doc.y = Math.max(doc.y, y + 14) + 4
  }

  heading('Recent sales')
  const columns = [
    { title: 'Address', width: 0.28, align: 'left' },
    { title: 'Close date', width: 0.16, align: 'left' },
    { title: 'List price', width: 0.15, align: 'right' },
    { title: 'Close price', width: 0.15, align: 'right' },
    { title: 'Sale-to-list', width: 0.13, align: 'right' },
    { title: 'DOM', width: 0.13, align: 'right' },
  ] as const
  const row = (cells: string[], bold: boolean, colours: string[] = []) => {
    const y = doc.y
    let x = left
    cells.forEach((text, index) => {
      const column = columns[index]!
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).fillColor(colours[index] ?? INK)
      doc.text(text, x, y, { width: width * column.width - 6, align: column.align })
      x += width * column.width
    })
    doc.y = y + 16
    doc.moveTo(left, doc.y - 4).lineTo(left + width, doc.y - 4).lineWidth(0.5).stroke(LINE)
  }
  row(columns.map((column) => column.title), true)
  for (const sale of SAMPLE_SALES) {
    const ratio = saleToListPercent(sale)
    row(
      [sale.address, reportDate.format(new Date(sale.closeDate)), usd.format(sale.listPrice), usd.format(sale.closePrice), `${ratio.toFixed(1)}%`, String(sale.daysOnMarket)],
      false,
      ['', '', '', '', ratio >= 100 ? '#166534' : '#b91c1c', ''],
    )
  }
  doc.x = left
  doc.font('Helvetica').fontSize(8).fillColor(MUTED).text('Sale-to-list ratio: green at or above 100% of list price, red below. DOM: days on market.')

  heading('Market analysis')
  for (const paragraph of SAMPLE_MARKET_ANALYSIS) doc.text(paragraph, { width, paragraphGap: 6 })

  heading('Contact')
  for (const [term, value] of [
    ['Agent', agent.name],
    ['Brokerage', agent.brokerage],
    ['License', agent.license],
    ['Phone', agent.phone],
    ['Email', agent.email],
  ] as const) {
    doc.font('Helvetica').fillColor(MUTED).text(`${term}: `, { continued: true }).fillColor(INK).text(value)
  }

  heading('Report information')
  for (const [term, value] of [['Report date', dated] as const, ...SAMPLE_REPORT_INFO]) {
    doc.font('Helvetica').fillColor(MUTED).text(`${term}: `, { continued: true }).fillColor(INK).text(value)
  }

  doc.end()
  return done
}

export const GET: APIRoute = async () => {
  const pdf = await renderSampleReportPdf(new Date())
  return new Response(new Uint8Array(pdf), { headers: { 'Content-Type': 'application/pdf' } })
}
