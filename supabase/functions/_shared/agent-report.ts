/**
 * The agent report as a PDF (pdf-lib, standard Helvetica fonts, US Letter): one template for the report mailed after
 * a report request (send-agent-report) and for the sample report download (/sample-report.pdf, built by the site).
 * Layout follows the sample report page: brand header, agent block, four metric boxes with their sample size and
 * window, the ZIP comparison with Redfin's attribution, recent sales, sources and a link to the agent page.
 * Runs in Deno and Node (no file access: the fonts are pdf-lib's built-in standard fonts).
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'

/** Everything the report prints. Money in USD, ratios as PERCENT (98.7 = 98.7 %), days in days, dates `YYYY-MM-DD`. */
export interface AgentReportData {
  /** The day the report was made, `YYYY-MM-DD`. */
  generatedOn: string
  /** True for the sample report: every page then says the figures are illustrative. */
  sample: boolean
  agent: {
    name: string
    brokerage: string | null
    licenseNumber: string | null
    area: string | null
    phone: string | null
    email: string | null
    /** Absolute URL of the agent page. */
    url: string
  }
  /** The metrics window; null when the agent has no closed sales in it. */
  window: { start: string; end: string } | null
  metrics: {
    totalSales: number
    saleToListAverage: number | null
    saleToListMedian: number | null
    saleToListN: number
    daysOnMarketAverage: number | null
    daysOnMarketMedian: number | null
    daysOnMarketN: number
    priceMin: number | null
    priceMax: number | null
    /** "Ranked #2 of 14 agents in 78704", or the reason there is no rank. */
    ranking: string | null
  }
  zip: {
    zipCode: string
    area: string | null
    medianSalePrice: number | null
    saleToListPercent: number | null
    medianDaysOnMarket: number | null
    homesSold: number | null
    periodEnd: string
    attribution: string
  } | null
  sales: {
    address: string
    closeDate: string | null
    listPrice: number | null
    closePrice: number | null
    daysOnMarket: number | null
  }[]
  /** One line per data source, e.g. 'Closed sales: MLS feed (RESO Web API), as listing agent'. */
  sources: string[]
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

/** "98.7%" (one decimal, the site's format), '-' when missing. */
export function reportPercent(value: number | null): string {
  return value === null ? '-' : `${Number(value).toFixed(1)}%`
}
const money = (value: number | null) => (value === null ? '-' : usd.format(value))
const days = (value: number | null) =>
  value === null ? '-' : `${Number.isInteger(value) ? value : value.toFixed(1)} days`
const day = (value: string | null) => (value ? longDate.format(new Date(`${value.slice(0, 10)}T00:00:00Z`)) : '-')

// Helvetica of the standard fonts encodes WinAnsi only; anything else would make pdf-lib throw
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')
/** Text the standard fonts can print: characters outside WinAnsi become '?'. */
export function winAnsi(text: string): string {
  return [...text]
    .map((char) => (char.charCodeAt(0) < 256 || WIN_ANSI_EXTRA.has(char) ? char : '?'))
    .join('')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
}

const PAGE = { width: 612, height: 792, margin: 48 }
const BLUE = rgb(0.11, 0.31, 0.85)
const INK = rgb(0.06, 0.09, 0.16)
const MUTED = rgb(0.28, 0.33, 0.41)
const LINE = rgb(0.89, 0.91, 0.94)

class Writer {
  page!: PDFPage
  y = 0
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
    readonly footer: string,
  ) {
    this.newPage()
  }
  newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height])
    this.y = PAGE.height - PAGE.margin
    this.page.drawText(winAnsi(this.footer), { x: PAGE.margin, y: 24, size: 8, font: this.regular, color: MUTED })
  }
  ensure(height: number) {
    if (this.y - height < PAGE.margin) this.newPage()
  }
  /** Draws text cut to `width` points with an ellipsis. */
  text(
    value: string,
    x: number,
    options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; width?: number; right?: boolean } = {},
  ) {
    const font = options.bold ? this.bold : this.regular
    const size = options.size ?? 10
    let text = winAnsi(value)
    if (options.width) {
      while (text.length > 1 && font.widthOfTextAtSize(text, size) > options.width) text = `${text.slice(0, -2)}…`
    }
    const drawX = options.right && options.width ? x + options.width - font.widthOfTextAtSize(text, size) : x
    this.page.drawText(text, { x: drawX, y: this.y, size, font, color: options.color ?? INK })
  }
  /** Wrapped paragraph at the full width; moves y down. */
  paragraph(value: string, size = 9, color = MUTED) {
    const width = PAGE.width - 2 * PAGE.margin
    const words = winAnsi(value).split(/\s+/)
    let line = ''
    for (const word of words) {
      const next = line ? `${line} ${word}` : word
      if (this.regular.widthOfTextAtSize(next, size) > width && line) {
        this.ensure(size + 4)
        this.page.drawText(line, { x: PAGE.margin, y: this.y, size, font: this.regular, color })
        this.y -= size + 4
        line = word
      } else line = next
    }
    if (line) {
      this.ensure(size + 4)
      this.page.drawText(line, { x: PAGE.margin, y: this.y, size, font: this.regular, color })
      this.y -= size + 4
    }
  }
  heading(value: string) {
    this.ensure(40)
    this.y -= 14
    this.text(value, PAGE.margin, { size: 13, bold: true })
    this.y -= 8
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 1,
      color: LINE,
    })
    this.y -= 14
  }
}

/**
 * Renders the report. @returns the PDF bytes (PDF 1.7, one or more US Letter pages).
 * Text outside the WinAnsi character set is printed as '?'.
 */
export async function renderAgentReportPdf(data: AgentReportData): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const title = data.sample ? 'Sample Agent Performance Report' : `Agent Performance Report: ${data.agent.name}`
  doc.setTitle(winAnsi(title))
  doc.setAuthor('AgentInsight')
  doc.setSubject('Agent performance from closed sales')
  doc.setCreator('AgentInsight')
  doc.setCreationDate(new Date(`${data.generatedOn}T00:00:00Z`))
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const footer = `AgentInsight · ${data.sample ? 'Sample report: all figures are illustrative' : `Report made ${day(data.generatedOn)}`} · ${data.agent.url}`
  const w = new Writer(doc, regular, bold, footer)
  const contentWidth = PAGE.width - 2 * PAGE.margin

  // brand band
  w.page.drawRectangle({ x: 0, y: PAGE.height - 36, width: PAGE.width, height: 36, color: BLUE })
  w.page.drawText('AgentInsight', { x: PAGE.margin, y: PAGE.height - 24, size: 14, font: bold, color: rgb(1, 1, 1) })
  w.page.drawText(winAnsi(`Made ${day(data.generatedOn)}`), {
    x: PAGE.width - PAGE.margin - 120,
    y: PAGE.height - 24,
    size: 9,
    font: regular,
    color: rgb(1, 1, 1),
  })
  w.y = PAGE.height - 72
  if (data.sample) {
    w.text('Sample report: all figures are illustrative', PAGE.margin, {
      size: 9,
      bold: true,
      color: rgb(0.57, 0.25, 0.05),
    })
    w.y -= 18
  }
  w.text('Agent Performance Report', PAGE.margin, { size: 20, bold: true })
  w.y -= 28
  w.text(data.agent.name, PAGE.margin, { size: 16, bold: true, width: contentWidth })
  w.y -= 16
  const facts = [
    data.agent.brokerage,
    data.agent.licenseNumber ? `License ${data.agent.licenseNumber}` : null,
    data.agent.area,
    data.agent.phone,
    data.agent.email,
  ].filter((value): value is string => Boolean(value))
  if (facts.length > 0) w.paragraph(facts.join(' · '), 10, MUTED)
  const windowText = data.window
    ? `${day(data.window.start)} - ${day(data.window.end)}`
    : 'no closed sales in the window'
  w.paragraph(`Closed sales as listing agent, ${windowText}.`, 9)

  // four metric boxes
  w.y -= 6
  const boxWidth = (contentWidth - 3 * 8) / 4
  const boxHeight = 70
  w.ensure(boxHeight + 10)
  const boxes: [string, string, string][] = [
    [
      'Sale-to-list price',
      reportPercent(data.metrics.saleToListAverage),
      `median ${reportPercent(data.metrics.saleToListMedian)} · n = ${data.metrics.saleToListN}`,
    ],
    [
      'Days on market',
      days(data.metrics.daysOnMarketAverage),
      `median ${days(data.metrics.daysOnMarketMedian)} · n = ${data.metrics.daysOnMarketN}`,
    ],
    ['Homes sold', String(data.metrics.totalSales), `n = ${data.metrics.totalSales} closed sales`],
    [
      'Price range',
      data.metrics.priceMin === null || data.metrics.priceMax === null
        ? '-'
        : `${usd.format(data.metrics.priceMin / 1000)}K-${usd.format(data.metrics.priceMax / 1000)}K`,
      `n = ${data.metrics.totalSales}`,
    ],
  ]
  const top = w.y
  boxes.forEach(([label, value, note], index) => {
    const x = PAGE.margin + index * (boxWidth + 8)
    w.page.drawRectangle({
      x,
      y: top - boxHeight,
      width: boxWidth,
      height: boxHeight,
      borderColor: LINE,
      borderWidth: 1,
      color: rgb(0.97, 0.98, 1),
    })
    w.y = top - 16
    w.text(label, x + 8, { size: 8, color: MUTED, width: boxWidth - 16 })
    w.y = top - 38
    w.text(value, x + 8, { size: 16, bold: true, width: boxWidth - 16 })
    w.y = top - 56
    w.text(note, x + 8, { size: 7, color: MUTED, width: boxWidth - 16 })
  })
  w.y = top - boxHeight - 14
  if (data.metrics.ranking) w.paragraph(data.metrics.ranking, 9, INK)

  // ZIP comparison
  if (data.zip) {
    w.heading(`Compared with the market in ${data.zip.zipCode}${data.zip.area ? ` (${data.zip.area})` : ''}`)
    const columns = [PAGE.margin, PAGE.margin + 220, PAGE.margin + 370]
    const rows: [string, string, string][] = [
      ['Measure', 'This agent', `ZIP ${data.zip.zipCode}`],
      [
        'Sale price',
        data.metrics.priceMin === null || data.metrics.priceMax === null
          ? '-'
          : `${money(data.metrics.priceMin)} - ${money(data.metrics.priceMax)}`,
        `${money(data.zip.medianSalePrice)} (median)`,
      ],
      [
        'Average sale-to-list',
        reportPercent(data.metrics.saleToListAverage),
        reportPercent(data.zip.saleToListPercent),
      ],
      ['Median days on market', days(data.metrics.daysOnMarketMedian), days(data.zip.medianDaysOnMarket)],
    ]
    rows.forEach((row, index) => {
      w.ensure(16)
      row.forEach((cell, column) =>
        w.text(cell, columns[column]!, { size: 9, bold: index === 0, width: column === 0 ? 210 : 145 }),
      )
      w.y -= 16
    })
    w.paragraph(
      `Market figures for the month ending ${day(data.zip.periodEnd)}${data.zip.homesSold !== null ? `, ${data.zip.homesSold} homes sold` : ''}. ${data.zip.attribution}`,
      8,
    )
  }

  // recent sales
  w.heading('Recent sales')
  if (data.sales.length === 0) w.paragraph('No closed sales on record.', 9, INK)
  else {
    const columns: [number, number, boolean][] = [
      [PAGE.margin, 170, false],
      [PAGE.margin + 175, 75, false],
      [PAGE.margin + 252, 75, true],
      [PAGE.margin + 330, 75, true],
      [PAGE.margin + 408, 55, true],
      [PAGE.margin + 466, 50, true],
    ]
    const header = ['Address', 'Close date', 'List price', 'Sale price', 'Sale-to-list', 'DOM']
    const rows = data.sales.map((sale) => [
      sale.address,
      day(sale.closeDate),
      money(sale.listPrice),
      money(sale.closePrice),
      sale.listPrice && sale.closePrice ? reportPercent((sale.closePrice / sale.listPrice) * 100) : '-',
      sale.daysOnMarket === null ? '-' : String(sale.daysOnMarket),
    ])
    ;[header, ...rows].forEach((row, index) => {
      w.ensure(15)
      row.forEach((cell, column) =>
        w.text(cell, columns[column]![0], {
          size: 8.5,
          bold: index === 0,
          width: columns[column]![1],
          right: columns[column]![2],
        }),
      )
      w.y -= 15
    })
  }

  // sources
  w.heading('Sources and window')
  for (const source of data.sources) w.paragraph(source, 9, INK)
  w.paragraph(
    `Figures count closed sales as listing agent in the window ${windowText}. n is the number of sales behind each figure.`,
    9,
  )
  w.y -= 6
  w.paragraph(`See the live profile: ${data.agent.url}`, 10, BLUE)
  return doc.save()
}
