/**
 * `--map mapping.json`: how the columns of a non-RESO file become RESO Data Dictionary fields.
 *
 * ```json
 * { "source": "redfin-ma-2020",
 *   "fields": { "ListPrice": { "column": "price" }, "CloseDate": { "column": "date_sold", "format": "epoch-ms" },
 *               "StandardStatus": { "const": "Closed" } } }
 * ```
 * Only mapped fields reach validation. Dates are converted to ISO here; every other value is passed on as text.
 *
 * `skip` rules name rows the mapping knows to be out of scope, with the reason: such a row is counted and printed as
 * skipped, never validated or rejected (a Redfin export's public-record rows have no sale price: they are not MLS
 * sales, not broken ones).
 * ```json
 * "skip": [{ "reason": "public-record row: no sale price", "when": [{ "column": "original_price", "blank": true }] }]
 * ```
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

/** One test on a source column: blank (empty or missing), equal to a value (compared as trimmed text), or matching a regular expression. */
export const SkipConditionSchema = z.union([
  z.strictObject({ column: z.string().min(1), blank: z.literal(true) }),
  z.strictObject({ column: z.string().min(1), equals: z.union([z.string(), z.number(), z.boolean()]) }),
  z.strictObject({
    column: z.string().min(1),
    matches: z.string().refine((pattern) => {
      try {
        new RegExp(pattern)
        return true
      } catch {
        return false
      }
    }, 'must be a valid regular expression'),
  }),
])
export type SkipCondition = z.infer<typeof SkipConditionSchema>

/** A row is skipped with `reason` when every condition of `when` holds. */
export const SkipRuleSchema = z.strictObject({
  reason: z.string().trim().min(1, 'a skip rule needs a reason').max(200),
  when: z.array(SkipConditionSchema).min(1, 'a skip rule needs at least one condition'),
})
export type SkipRule = z.infer<typeof SkipRuleSchema>

export const MappingSchema = z.strictObject({
  /** Stored in properties.source; together with ListingKey it identifies a row across imports. */
  source: z.string().trim().min(1).max(100),
  resource: z.enum(['Property', 'Member']).optional(),
  description: z.string().optional(),
  fields: z.record(
    z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'field names are RESO names such as ListPrice'),
    FieldMappingSchema,
  ),
  /** Rows out of the mapping's scope; the first rule that matches names the reason. */
  skip: z.array(SkipRuleSchema).optional(),
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

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === ''
const patterns = new Map<string, RegExp>()

function holds(condition: SkipCondition, record: SourceRecord): boolean {
  const value = record[condition.column]
  if ('blank' in condition) return isBlank(value)
  if ('equals' in condition) return !isBlank(value) && String(value).trim() === String(condition.equals)
  let pattern = patterns.get(condition.matches)
  if (!pattern) patterns.set(condition.matches, (pattern = new RegExp(condition.matches)))
  return pattern.test(isBlank(value) ? '' : String(value).trim())
}

/** The reason of the first skip rule whose conditions all hold for this source record, else undefined. */
export function skipReason(record: SourceRecord, mapping: Mapping): string | undefined {
  return mapping.skip?.find((rule) => rule.when.every((condition) => holds(condition, record)))?.reason
}

/**
 * The source columns a mapping reads, with what each one feeds: a RESO field, or a skip rule (`skip rule "<reason>"`).
 */
export function mappedColumns(mapping: Mapping): Array<{ field: string; column: string }> {
  return [
    ...Object.entries(mapping.fields).flatMap(([field, rule]) =>
      'column' in rule ? [{ field, column: rule.column }] : [],
    ),
    ...(mapping.skip ?? []).flatMap((rule) =>
      rule.when.map((condition) => ({ field: `skip rule ${JSON.stringify(rule.reason)}`, column: condition.column })),
    ),
  ]
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
 * Checks that every column the mapping reads (its fields and its skip rules) exists in the file's header: a typo in a
 * column name would otherwise import NULLs over a whole column. `delimiter` is named in the message, since a wrong one makes the header
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
