/**
 * Parsing of single field values at the import boundary: blank cells, prices, dates in the formats MLS exports and
 * scraped files use, ZIP codes and US state codes. Pure functions, no I/O.
 */

/** Trims a cell; blank strings, null and undefined become undefined so a missing value is stored as NULL, never 0. */
export function blankToUndefined(value: unknown): unknown {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'string') {
    const trimmed = value.trim()
    return trimmed === '' ? undefined : trimmed
  }
  return value
}

/** "$1,250,000" and "1250000.00" become 1250000; anything else is returned unchanged for the schema to reject. */
export function cleanNumber(value: unknown): unknown {
  const blank = blankToUndefined(value)
  if (typeof blank !== 'string') return blank
  const stripped = blank.replace(/^\$/, '').replace(/,/g, '')
  return /^-?\d+(\.\d+)?$/.test(stripped) ? Number(stripped) : blank
}

export const dateFormats = ['iso', 'epoch-ms', 'epoch-s', 'MM/DD/YYYY'] as const
export type DateFormat = (typeof dateFormats)[number]

const isoDate = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/

function validDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  return date.toISOString().slice(0, 10)
}

/**
 * Converts a date cell to an ISO calendar date (YYYY-MM-DD), or undefined when it is not a date.
 * `format` is what the source normally sends; an ISO date is accepted whatever the format, because exports mix
 * them (the Redfin sold file has ISO dates on its public-record rows). Epoch values are read in UTC.
 */
export function parseDate(value: unknown, format: DateFormat = 'iso'): string | undefined {
  const cell = blankToUndefined(value)
  if (cell === undefined) return undefined
  const text = String(cell)
  const iso = isoDate.exec(text)
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
  if ((format === 'epoch-ms' || format === 'epoch-s') && /^\d{9,13}$/.test(text)) {
    const ms = format === 'epoch-ms' ? Number(text) : Number(text) * 1000
    return new Date(ms).toISOString().slice(0, 10)
  }
  if (format === 'MM/DD/YYYY') {
    const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text)
    if (us) return validDate(Number(us[3]), Number(us[1]), Number(us[2]))
  }
  return undefined
}

/** Five-digit ZIP from "02176" or "02176-1234"; undefined for anything else (e.g. "2176" after a spreadsheet ate the 0). */
export function parseZip(value: unknown): string | undefined {
  const cell = blankToUndefined(value)
  if (cell === undefined) return undefined
  const match = /^(\d{5})(-\d{4})?$/.exec(String(cell))
  return match ? match[1] : undefined
}

const stateCodes: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'puerto rico': 'PR',
  guam: 'GU',
  'virgin islands': 'VI',
}

/** Two-letter USPS code from "ma", "MA" or "Massachusetts"; undefined when unknown. */
export function parseStateCode(value: unknown): string | undefined {
  const cell = blankToUndefined(value)
  if (cell === undefined) return undefined
  const text = String(cell)
  if (/^[A-Za-z]{2}$/.test(text)) return text.toUpperCase()
  return stateCodes[text.toLowerCase()]
}
