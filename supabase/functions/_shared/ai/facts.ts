/**
 * Facts: the only figures an article may print, each with its period and source, and the check that a generated
 * text prints no other number. Pure; no I/O.
 *
 * Figure rule (generate-blog-content fails the job when it is broken):
 * - Every number token in the text must match a fact value at the precision printed: "98.7%" matches 98.66,
 *   "$612K" matches 612,345 (K = thousand, M / million = million), "21" matches 21.0. A token with "$" only matches
 *   a USD fact and a token with "%" only a percent fact; signs are ignored (a fall of -12.5 is printed "12.5%").
 * - Allowed without a fact: years 1900-2100 printed as four plain digits; integers 0-10 with no unit (section
 *   numbers, list counts such as "3 steps"); ordinals 1st-10th; calendar dates equal to a fact's period date
 *   (ISO "2026-06-30" or "June 30, 2026").
 * - Anything else ("a 7.5% jump", "$300,000", "45 days") is an unsupported figure.
 */

export type FactUnit = 'usd' | 'percent' | 'days' | 'count' | 'zip'

/** One figure from a data query. */
export interface Fact {
  /** Stable id, e.g. 'benchmark:78704:median_sale_price'. */
  key: string
  /** What the number is, in words ("Median sale price in 78704"). */
  label: string
  value: number
  unit: FactUnit
  /** The period it describes, in words ("month ending 2026-06-30"). */
  period: string
  /** Where it comes from: a Redfin attribution line or 'AgentInsight closed sales (public.properties)'. */
  source: string
  zipCode?: string
}

/** Everything the writer may state about one place. */
export interface FactSheet {
  /** local: figures of the ZIPs/city the topic names; evergreen: a guide naming no place, site-wide figures only. */
  mode: 'local' | 'evergreen'
  /** The place in words ("78704 (Austin, TX)", "Austin, TX"). */
  location: string
  zipCodes: string[]
  facts: Fact[]
  /** ISO dates (yyyy-mm-dd) of the periods behind the facts, printable as dates. */
  periodDates: string[]
  /** Credit lines that must be printed with the figures (Redfin). */
  attributions: string[]
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** "June 30, 2026" from "2026-06-30" (UTC, no time zone drift). */
export function longDate(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number)
  return `${MONTHS[month! - 1]} ${day}, ${year}`
}

interface NumberToken {
  raw: string
  value: number
  /** Half a unit of the last printed digit, times the K/M scale: the rounding a printed figure may carry. */
  tolerance: number
  dollar: boolean
  percent: boolean
  plainInteger: boolean
  ordinal: boolean
}

const NUMBER_PATTERN =
  /(\$\s?)?(?<![\p{L}\d.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|percent\b|[KkMm]\b|million\b|thousand\b|billion\b|B\b)|(st|nd|rd|th)\b)?/gu

function tokens(text: string): NumberToken[] {
  const found: NumberToken[] = []
  for (const match of text.matchAll(NUMBER_PATTERN)) {
    const [raw, dollarSign, whole, fraction, suffix, ordinalSuffix] = match
    const decimals = fraction ? fraction.length - 1 : 0
    const suffixLower = suffix?.toLowerCase()
    const scale =
      suffixLower === 'k' || suffixLower === 'thousand'
        ? 1_000
        : suffixLower === 'm' || suffixLower === 'million'
          ? 1_000_000
          : suffixLower === 'b' || suffixLower === 'billion'
            ? 1_000_000_000
            : 1
    const value = Number(`${whole!.replace(/,/g, '')}${fraction ?? ''}`) * scale
    found.push({
      raw: raw.trim(),
      value,
      tolerance: 0.5 * 10 ** -decimals * scale + 1e-9,
      dollar: Boolean(dollarSign),
      percent: suffixLower === '%' || suffixLower === 'percent',
      plainInteger: !dollarSign && !fraction && !suffix && !ordinalSuffix && !whole!.includes(','),
      ordinal: Boolean(ordinalSuffix),
    })
  }
  return found
}

function exempt(token: NumberToken): boolean {
  if (token.ordinal) return token.value >= 1 && token.value <= 10
  if (!token.plainInteger) return false
  if (token.value >= 0 && token.value <= 10) return true
  return token.raw.length === 4 && token.value >= 1900 && token.value <= 2100
}

function matchesFact(token: NumberToken, fact: Fact): boolean {
  if (token.dollar && fact.unit !== 'usd') return false
  if (token.percent && fact.unit !== 'percent') return false
  if (fact.unit === 'zip') return token.plainInteger && token.raw === fact.value.toString().padStart(5, '0')
  return Math.abs(token.value - Math.abs(fact.value)) <= token.tolerance
}

/** Removes the fact period dates (ISO and long form) so their day and year digits are not checked as figures. */
function withoutPeriodDates(text: string, sheet: FactSheet): string {
  let result = text
  for (const iso of sheet.periodDates) {
    result = result.split(iso).join(' ').split(longDate(iso)).join(' ')
  }
  return result
}

/** ZIPs are printed with leading zeros ("02139"); the numeric fact loses them, so check the printed form. */
function withoutZipCodes(text: string, sheet: FactSheet): string {
  let result = text
  for (const zip of sheet.zipCodes) result = result.replace(new RegExp(`(?<!\\d)${zip}(?!\\d)`, 'g'), ' ')
  return result
}

export interface FigureCheck {
  ok: boolean
  /** Number tokens read (ZIPs and period dates excluded): matched to a fact, allowed (years, 0-10) or unsupported. */
  checked: number
  /** Printed figures that match no fact, in order of first appearance, without repeats. */
  unsupported: string[]
}

/** Checks plain text (tags already stripped) against the fact sheet per the module's figure rule. */
export function checkFigures(text: string, sheet: FactSheet): FigureCheck {
  const cleaned = withoutZipCodes(withoutPeriodDates(text, sheet), sheet)
  const unsupported: string[] = []
  const found = tokens(cleaned)
  for (const token of found) {
    if (exempt(token)) continue
    if (sheet.facts.some((fact) => matchesFact(token, fact))) continue
    if (!unsupported.includes(token.raw)) unsupported.push(token.raw)
  }
  return { ok: unsupported.length === 0, checked: found.length, unsupported }
}

/** USD with thousands separators and no cents: 612345 -> "$612,345". */
export function formatUsd(value: number): string {
  return `$${Math.round(value).toLocaleString('en-US')}`
}

/** A number at one decimal unless whole: 98.66 -> "98.7", 21 -> "21". */
export function formatNumber(value: number, decimals = 1): string {
  const rounded = Number(value.toFixed(decimals))
  return Number.isInteger(rounded)
    ? rounded.toLocaleString('en-US')
    : rounded.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
}

/** A fact printed the way the writers print it: "$612,345", "98.7%", "21 days", "14", "02139". */
export function formatFact(fact: Fact): string {
  switch (fact.unit) {
    case 'usd':
      return formatUsd(fact.value)
    case 'percent':
      return `${formatNumber(Math.abs(fact.value))}%`
    case 'days':
      return `${formatNumber(fact.value)} days`
    case 'zip':
      return String(fact.value).padStart(5, '0')
    case 'count':
      return formatNumber(fact.value, 0)
  }
}
