/**
 * `--map mapping.json`: how the columns of a non-RESO file become RESO Data Dictionary fields.
 *
 * ```json
 * { "source": "redfin-ma-2020",
 *   "fields": { "ListPrice": { "column": "price" }, "CloseDate": { "column": "date_sold", "format": "epoch-ms" },
 *               "StandardStatus": { "const": "Closed" } } }
 * ```
 * Only mapped fields reach validation. Dates are converted to ISO here; every other value is passed on as text.
 */
import { distance } from 'fastest-levenshtein'
import fs from 'node:fs'
import { z } from 'zod'
import { dateFormats, parseDate } from './values.ts'

export const FieldMappingSchema = z.union([
  z.strictObject({ column: z.string().min(1), format: z.enum(dateFormats).optional() }),
  z.strictObject({ const: z.union([z.string(), z.number(), z.boolean()]) }),
])
export type FieldMapping = z.infer<typeof FieldMappingSchema>

export const MappingSchema = z.strictObject({
  /** Stored in properties.source; together with ListingKey it identifies a row across imports. */
  source: z.string().trim().min(1).max(100),
  resource: z.enum(['Property', 'Member']).optional(),
  description: z.string().optional(),
  fields: z.record(
    z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'field names are RESO names such as ListPrice'),
    FieldMappingSchema,
  ),
})
export type Mapping = z.infer<typeof MappingSchema>

/** Reads and validates a mapping file. @throws Error naming the file and each invalid entry. */
export function readMapping(file: string): Mapping {
  let json: unknown
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`Cannot read mapping ${file}: ${(error as Error).message}`, { cause: error })
  }
  const parsed = MappingSchema.safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('\n')
    throw new Error(`Invalid mapping ${file}:\n${problems}`)
  }
  return parsed.data
}

export type SourceRecord = Record<string, unknown>

/**
 * Applies a mapping to one source record. A date cell that does not parse is passed through unchanged so that
 * validation rejects the row naming the RESO field.
 */
export function applyMapping(record: SourceRecord, mapping: Mapping): SourceRecord {
  const out: SourceRecord = {}
  for (const [field, rule] of Object.entries(mapping.fields)) {
    if ('const' in rule) {
      out[field] = rule.const
      continue
    }
    const value = record[rule.column]
    if (rule.format) {
      out[field] = parseDate(value, rule.format) ?? value
    } else {
      out[field] = value
    }
  }
  return out
}

/** The source columns a mapping reads, with the RESO field each one feeds. */
export function mappedColumns(mapping: Mapping): Array<{ field: string; column: string }> {
  return Object.entries(mapping.fields).flatMap(([field, rule]) =>
    'column' in rule ? [{ field, column: rule.column }] : [],
  )
}

/** Up to `n` header names nearest to `column` (Levenshtein distance, case-insensitive; ties in header order). */
export function closestColumns(column: string, header: string[], n = 3): string[] {
  return header
    .map((name, index) => ({ name, index, d: distance(column.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.index - b.index)
    .slice(0, n)
    .map((entry) => entry.name)
}

/** A mapping that does not fit the file; the importer stops before writing anything. */
export class MappingError extends Error {
  override name = 'MappingError'
}

/**
 * Checks that every column the mapping reads exists in the file's header (issue "data integrity", case 1: a typo
 * used to import NULLs over a whole column). `delimiter` is named in the message, since a wrong one makes the header
 * a single column.
 * @throws MappingError with one line per missing column: the RESO field, the missing column and the closest header
 * names.
 */
export function validateMappingAgainstHeader(
  mapping: Mapping,
  header: string[],
  where: string,
  delimiter?: string,
): void {
  const present = new Set(header)
  const missing = mappedColumns(mapping).filter(({ column }) => !present.has(column))
  if (missing.length === 0) return
  const shown = (names: string[]) =>
    names.map((name) => JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}...` : name)).join(', ')
  const lines = missing.map(
    ({ field, column }) =>
      `  ${field}: column ${JSON.stringify(column)} is not in the header; closest header names: ${shown(closestColumns(column, header))}`,
  )
  const hint =
    header.length === 1
      ? `\n  The header has a single column: is the delimiter right? (read with ${JSON.stringify(delimiter ?? ',')}; set --delimiter)`
      : ''
  throw new MappingError(`The mapping does not match ${where}; nothing was imported:\n${lines.join('\n')}${hint}`)
}
