/**
 * Display formatters shared by the public site (search results, agent profile, compare, ZIP pages) and the PDF agent
 * report. Pure functions, en-US, no imports (the browser, Node and Deno load it).
 * Every one returns an em dash for a missing value so a card never shows "null" or "NaN".
 *
 * Numbers are grouped here in plain code, not with Intl.NumberFormat: the first Intl formatter a page creates
 * initialises the browser's ICU data, 30-37 ms of main thread on this project's 2-core machine and 114-150 ms under
 * Lighthouse's 4x CPU slowdown, inside the search-results island's first render (it counted as Total Blocking Time). The output is the
 * same as Intl.NumberFormat('en-US') with no fraction digits (format.test.ts compares them). Dates keep
 * Intl.DateTimeFormat, created on first use: the result cards show no dates.
 */

const MISSING = '—'

/** Beyond this, String(n) switches to exponent notation; such amounts go through Intl (never seen in real data). */
const PLAIN_LIMIT = 1e21

let largeNumberFormatter: Intl.NumberFormat | undefined
let dateFormatter: Intl.DateTimeFormat | undefined

/**
 * An integer in en-US digits with thousands separators, rounded half away from zero as Intl.NumberFormat rounds:
 * 1234.5 → "1,235", -1234.5 → "-1,235". `number` must be finite.
 */
function groupThousands(number: number): string {
  const magnitude = Math.round(Math.abs(number))
  if (magnitude >= PLAIN_LIMIT) {
    largeNumberFormatter ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
    return largeNumberFormatter.format(number)
  }
  const grouped = String(magnitude).replace(/\B(?=(\d{3})+$)/g, ',')
  return number < 0 && magnitude !== 0 ? `-${grouped}` : grouped
}

/** A USD amount without decimals: 612000 → "$612,000". Accepts numbers or numeric strings (PostgREST numerics). */
export function formatUsd(value: number | string | null | undefined): string {
  const number = toNumber(value)
  if (number === null) return MISSING
  const grouped = groupThousands(number)
  return grouped.startsWith('-') ? `-$${grouped.slice(1)}` : `$${grouped}`
}

/**
 * A compact USD amount in thousands for price ranges: 385000 → "$385K", 1050000 → "$1,050K".
 * Rounded to the nearest thousand (the search card's "$XK-$YK" form).
 */
export function formatUsdThousands(value: number | string | null | undefined): string {
  const number = toNumber(value)
  return number === null ? MISSING : `$${groupThousands(Math.round(number / 1000))}K`
}

/** The card's price range "$385K-$1,050K"; null when either end is missing. */
export function formatPriceRange(
  min: number | string | null | undefined,
  max: number | string | null | undefined,
): string | null {
  if (toNumber(min) === null || toNumber(max) === null) return null
  return `${formatUsdThousands(min)}-${formatUsdThousands(max)}`
}

/** A PERCENT value (98.7 means 98.7 %) with one decimal: "98.7%". */
export function formatPercent(value: number | string | null | undefined, digits = 1): string {
  const number = toNumber(value)
  return number === null ? MISSING : `${number.toFixed(digits)}%`
}

/** A day count: 21 → "21 days", 1 → "1 day", 20.5 → "20.5 days". */
export function formatDays(value: number | string | null | undefined): string {
  const number = toNumber(value)
  if (number === null) return MISSING
  const text = Number.isInteger(number) ? String(number) : number.toFixed(1)
  return `${text} ${number === 1 ? 'day' : 'days'}`
}

/** A number of sides: whole or with the halves of shared ones, "12", "12.5", "1,204.5". */
export function formatSides(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return MISSING
  const number = Number(value)
  if (!Number.isFinite(number)) return MISSING
  const rounded = Math.round(number * 100) / 100
  const whole = Math.trunc(rounded)
  const fraction = Math.abs(rounded - whole)
  const decimals = fraction === 0 ? '' : fraction.toFixed(2).slice(1).replace(/0+$/, '')
  return `${groupThousands(whole)}${decimals}`
}

/** A calendar date stored as `YYYY-MM-DD` (no time zone): "2026-10-18" → "Oct 18, 2026". */
export function formatDate(value: string | null | undefined): string {
  if (!value) return MISSING
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return MISSING
  dateFormatter ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })
  return dateFormatter.format(date)
}

/** An integer with thousands separators: 1234 → "1,234". */
export function formatCount(value: number | string | null | undefined): string {
  const number = toNumber(value)
  return number === null ? MISSING : groupThousands(number)
}

/** "Jane Q. Smith" → "JS": first and last initials for the avatar fallback. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return '?'
  const first = words[0]![0] ?? ''
  const last = words.length > 1 ? (words[words.length - 1]![0] ?? '') : ''
  return (first + last).toUpperCase()
}

/** Sale price / list price as a PERCENT, or null when either is missing or the list price is 0. */
export function saleToListPercent(
  listPrice: number | string | null | undefined,
  salePrice: number | string | null | undefined,
): number | null {
  const list = toNumber(listPrice)
  const sale = toNumber(salePrice)
  if (list === null || sale === null || list <= 0) return null
  return (sale / list) * 100
}

function toNumber(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null
  const number = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(number) ? number : null
}
