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
import fs from 'node:fs';
import { z } from 'zod';
import { dateFormats, parseDate } from './values.ts';

export const FieldMappingSchema = z.union([
  z.strictObject({ column: z.string().min(1), format: z.enum(dateFormats).optional() }),
  z.strictObject({ const: z.union([z.string(), z.number(), z.boolean()]) }),
]);
export type FieldMapping = z.infer<typeof FieldMappingSchema>;

export const MappingSchema = z.strictObject({
  /** Stored in properties.source; together with ListingKey it identifies a row across imports. */
  source: z.string().trim().min(1).max(100),
  resource: z.enum(['Property', 'Member']).optional(),
  description: z.string().optional(),
  fields: z.record(z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'field names are RESO names such as ListPrice'), FieldMappingSchema),
});
export type Mapping = z.infer<typeof MappingSchema>;

/** Reads and validates a mapping file. @throws Error naming the file and each invalid entry. */
export function readMapping(file: string): Mapping {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read mapping ${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = MappingSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`).join('\n');
    throw new Error(`Invalid mapping ${file}:\n${problems}`);
  }
  return parsed.data;
}

export type SourceRecord = Record<string, unknown>;

/**
 * Applies a mapping to one source record. A date cell that does not parse is passed through unchanged so that
 * validation rejects the row naming the RESO field.
 */
export function applyMapping(record: SourceRecord, mapping: Mapping): SourceRecord {
  const out: SourceRecord = {};
  for (const [field, rule] of Object.entries(mapping.fields)) {
    if ('const' in rule) {
      out[field] = rule.const;
      continue;
    }
    const value = record[rule.column];
    if (rule.format) {
      out[field] = parseDate(value, rule.format) ?? value;
    } else {
      out[field] = value;
    }
  }
  return out;
}
