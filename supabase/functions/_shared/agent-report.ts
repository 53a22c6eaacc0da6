/**
 * The agent report as a PDF (pdf-lib, standard Helvetica fonts, US Letter): one template for the report mailed after
 * a report request (send-agent-report) and for the sample report download (/sample-report.pdf, built by the site).
 * Layout follows the sample report page: brand header, agent block, four headline boxes with their sample size and
 * window, every figure per side (listing, buyer, both) with its n, 95 % interval and difference from the ZIP, each
 * linking to the sales behind it on the site, the ZIP comparison with Redfin's attribution, the sales list, the data
 * date, sources and methodology version, and a link to the agent page.
 * Runs in Deno and Node (no file access: the fonts are pdf-lib's built-in standard fonts).
 */
import { PDFDocument, PDFString, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'

/** One figure as the report prints it (already formatted). */
export interface ReportFigure {
  label: string
  /** "101.2%", "$5,230,000", "14". */
  value: string
  /** "n = 14 sales · 95 % interval 99.1% to 102.3% · +1.8 pts vs ZIP average". */
  detail: string
  /** Absolute URL of "the sales behind this figure". */
  url: string
}

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
  /** "Data as of Sep 30, 2025 from generated demo data, methodology v4". */
  dataAsOf: string
  /** The methodology version the figures follow, and where it is explained (absolute URL). */
  methodology: { version: string; url: string }
  /** The four boxes at the top: label, value, note (n and what it counts). */
  highlights: { label: string; value: string; note: string; url: string | null }[]
  /** Every figure, per side. Empty when the agent has no figures. */
  figureGroups: { title: string; subtitle: string; figures: ReportFigure[] }[]
  /** "Ranked #2 of 14 agents in 78704 by sides", or "too few sales to rank" and why. */
  ranking: string | null
  zip: {
    zipCode: string
    area: string | null
    medianSalePrice: number | null
    saleToListPercent: number | null
    medianDaysOnMarket: number | null
    homesSold: number | null
    periodEnd: string
    attribution: string
    /** The agent's figures next to the ZIP's: measure, agent value, ZIP value, difference. */
    rows: [measure: string, agent: string, zip: string, difference: string][]
  } | null
  /** The sales behind the figures, newest first. */
  sales: {
    address: string
    closeDate: string | null
    /** "List agent", "Buyer agent", ... (null when unknown). */
    role: string | null
    listPrice: number | null
    closePrice: number | null
    daysOnMarket: number | null
    /** Feed and its record id (RESO ListingKey), e.g. "demo DEMO-1a2b-L0007". */
    source: string | null
  }[]
  /** Says when the list is cut short: "The 100 newest of 412 sales; all of them: <url>". */
  salesNote: string | null
  /** One line per data source, e.g. 'Closed sales: MLS feed (RESO Web API), both sides'. */
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
  return [...text.replace(/\u2212/g, '-').replace(/\u2009|\u202f/g, ' ')]
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
  /** Makes the box from (x, y - 3) of `width` x `height` points a link to `url` (a URI action, opened by viewers). */
  link(url: string, x: number, width: number, height = 12) {
    const annotation = this.doc.context.register(
      this.doc.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [x, this.y - 3, x + width, this.y - 3 + height],
        Border: [0, 0, 0],
        A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
      }),
    )
    this.page.node.addAnnot(annotation)
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
 * Text outside the WinAnsi character set is printed as '?' (the minus sign as '-').
 */
export async function renderAgentReportPdf(data: AgentReportData): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const title = data.sample ? 'Sample Agent Performance Report' : `Agent Performance Report: ${data.agent.name}`
  doc.setTitle(winAnsi(title))
  doc.setAuthor('AgentInsight')
  doc.setSubject(`Agent performance from closed sales, both sides (methodology v${data.methodology.version})`)
  doc.setCreator('AgentInsight')
  doc.setCreationDate(new Date(`${data.generatedOn}T00:00:00Z`))
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const footer = `AgentInsight · ${data.sample ? 'Sample report: all figures are illustrative' : `Report made ${day(data.generatedOn)}`} · methodology v${data.methodology.version} · ${data.agent.url}`
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
  w.paragraph(`Closed sales on the listing and the buyer side, ${windowText}.`, 9)
  w.paragraph(`${data.dataAsOf}.`, 9, INK)

  // four headline boxes
  w.y -= 6
  const boxWidth = (contentWidth - 3 * 8) / 4
  const boxHeight = 70
  w.ensure(boxHeight + 10)
  const top = w.y
  data.highlights.slice(0, 4).forEach(({ label, value, note, url }, index) => {
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
    if (url) w.link(url, x, boxWidth, 20)
    w.y = top - 56
    w.text(note, x + 8, { size: 7, color: MUTED, width: boxWidth - 16 })
  })
  w.y = top - boxHeight - 14
  if (data.ranking) w.paragraph(data.ranking, 9, INK)

  // every figure, per side; each value links to the sales behind it
  for (const group of data.figureGroups) {
    w.heading(group.title)
    w.paragraph(group.subtitle, 8)
    w.y -= 2
    for (const figure of group.figures) {
      w.ensure(26)
      w.text(figure.label, PAGE.margin, { size: 9, width: 300 })
      w.text(figure.value, PAGE.margin + 310, { size: 9, bold: true, width: contentWidth - 310, right: true })
      w.link(figure.url, PAGE.margin + 310, contentWidth - 310)
      w.y -= 11
      w.text(figure.detail, PAGE.margin + 8, { size: 7.5, color: MUTED, width: contentWidth - 8 })
      w.y -= 14
    }
  }
  if (data.figureGroups.length > 0)
    w.paragraph(
      'Each value links to the sales behind it on AgentInsight, with the formula in words and a CSV to recompute it.',
      8,
    )

  // ZIP comparison
  if (data.zip) {
    w.heading(`Compared with the market in ${data.zip.zipCode}${data.zip.area ? ` (${data.zip.area})` : ''}`)
    const columns: [number, number, boolean][] = [
      [PAGE.margin, 170, false],
      [PAGE.margin + 175, 110, true],
      [PAGE.margin + 290, 110, true],
      [PAGE.margin + 405, 111, true],
    ]
    const rows: string[][] = [['Measure', 'This agent', `ZIP ${data.zip.zipCode}`, 'Difference'], ...data.zip.rows]
    rows.forEach((row, index) => {
      w.ensure(16)
      row.forEach((cell, column) =>
        w.text(cell, columns[column]![0], {
          size: 9,
          bold: index === 0,
          width: columns[column]![1],
          right: columns[column]![2],
        }),
      )
      w.y -= 16
    })
    w.paragraph(
      `Market figures for the month ending ${day(data.zip.periodEnd)}${data.zip.homesSold !== null ? `, ${data.zip.homesSold} homes sold` : ''}. ${data.zip.attribution}`,
      8,
    )
  }

  // the sales behind the figures
  w.heading('Sales behind the figures')
  if (data.sales.length === 0) w.paragraph('No closed sales on record.', 9, INK)
  else {
    const columns: [number, number, boolean][] = [
      [PAGE.margin, 120, false],
      [PAGE.margin + 122, 60, false],
      [PAGE.margin + 184, 62, false],
      [PAGE.margin + 248, 58, true],
      [PAGE.margin + 308, 58, true],
      [PAGE.margin + 368, 30, true],
      [PAGE.margin + 402, 114, false],
    ]
    const header = ['Address', 'Close date', 'Role', 'List price', 'Sale price', 'DOM', 'Source and record id']
    const rows = data.sales.map((sale) => [
      sale.address,
      day(sale.closeDate),
      sale.role ?? '-',
      money(sale.listPrice),
      money(sale.closePrice),
      sale.daysOnMarket === null ? '-' : String(sale.daysOnMarket),
      sale.source ?? '-',
    ])
    ;[header, ...rows].forEach((row, index) => {
      w.ensure(14)
      row.forEach((cell, column) =>
        w.text(cell, columns[column]![0], {
          size: 7.5,
          bold: index === 0,
          width: columns[column]![1],
          right: columns[column]![2],
        }),
      )
      w.y -= 13
    })
  }
  if (data.salesNote) w.paragraph(data.salesNote, 8)

  // sources, data date and methodology
  w.heading('Sources, window and methodology')
  for (const source of data.sources) w.paragraph(source, 9, INK)
  w.paragraph(
    `Figures count closed sales on the listing side (list and co-list agent) and the buyer side (buyer and co-buyer agent) in the window ${windowText}; an agent and a co-agent share a side half each. n is the number of sales behind each figure; intervals are 95 %.`,
    9,
  )
  w.paragraph(`${data.dataAsOf}. How every figure is computed: ${data.methodology.url}`, 9, INK)
  w.link(data.methodology.url, PAGE.margin, contentWidth, 24)
  w.y -= 6
  w.paragraph(`See the live profile: ${data.agent.url}`, 10, BLUE)
  w.link(data.agent.url, PAGE.margin, contentWidth, 14)
  return doc.save()
}
