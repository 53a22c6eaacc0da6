/**
 * Loads Redfin Data Center "ZIP code market tracker" rows (the columns of supabase/data/redfin-zip-subset.csv) into
 * public.zip_market_benchmarks, upserting by zip_code. Redfin's fractions are stored as fractions; the table derives
 * the percent column.
 */
import { stringify } from 'csv-stringify/sync'
import fs from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { z } from 'zod'
import { readRecords } from './read-file.ts'
import { blankToUndefined, cleanNumber, parseDate, parseStateCode } from './values.ts'
import { defaultRejectsPath } from './run-import.ts'

const optionalNumber = (schema: z.ZodNumber) => z.preprocess(cleanNumber, schema.optional())
const optionalText = z.preprocess(blankToUndefined, z.string().max(200).optional())

export const RedfinZipRowSchema = z.object({
  zip_code: z.string().regex(/^\d{5}$/, 'unknown ZIP format (expected 12345)'),
  state: z.preprocess(
    (value) => parseStateCode(value) ?? value,
    z
      .string()
      .regex(/^[A-Z]{2}$/, 'unknown state')
      .optional(),
  ),
  city: optionalText,
  county: optionalText,
  parent_metro: optionalText,
  latitude: optionalNumber(z.number().min(-90).max(90)),
  longitude: optionalNumber(z.number().min(-180).max(180)),
  period_end: z.preprocess((value) => parseDate(value) ?? value, z.iso.date('must be a date (YYYY-MM-DD)')),
  median_sale_price: optionalNumber(z.number().positive('must be a positive number (USD)')),
  median_list_price: optionalNumber(z.number().positive('must be a positive number (USD)')),
  avg_sale_to_list_ratio: optionalNumber(z.number().positive().max(3, 'must be a fraction (1.0 = at list)')),
  sold_above_list: optionalNumber(z.number().min(0).max(1, 'must be a fraction 0-1')),
  median_dom: optionalNumber(z.number().min(0)),
  homes_sold: optionalNumber(z.number().int().min(0)),
})
export type RedfinZipRow = z.infer<typeof RedfinZipRowSchema>

export interface BenchmarkSummary {
  read: number
  rejected: number
  inserted: number
  updated: number
  unchanged: number
  rejectsFile: string | null
}

const columns = [
  ['zip_code', 'text', 'zip_code'],
  ['city', 'text', 'city'],
  ['state', 'text', 'state'],
  ['county', 'text', 'county'],
  ['metro', 'text', 'parent_metro'],
  ['latitude', 'numeric', 'latitude'],
  ['longitude', 'numeric', 'longitude'],
  ['period_end', 'date', 'period_end'],
  ['median_sale_price', 'numeric', 'median_sale_price'],
  ['median_list_price', 'numeric', 'median_list_price'],
  ['avg_sale_to_list_fraction', 'numeric', 'avg_sale_to_list_ratio'],
  ['sold_above_list_fraction', 'numeric', 'sold_above_list'],
  ['median_dom', 'numeric', 'median_dom'],
  ['homes_sold', 'integer', 'homes_sold'],
] as const satisfies ReadonlyArray<readonly [string, string, keyof RedfinZipRow]>

/** Validates and upserts a Redfin ZIP CSV; rejects go to `rejectsFile` (default under .data/import-rejects/). */
export async function loadZipBenchmarks(
  client: pg.ClientBase | null,
  file: string,
  rejectsFile = defaultRejectsPath(file),
): Promise<BenchmarkSummary> {
  const summary: BenchmarkSummary = { read: 0, rejected: 0, inserted: 0, updated: 0, unchanged: 0, rejectsFile: null }
  const rows = new Map<string, RedfinZipRow>()
  const rejects: string[][] = []
  for await (const { line, record, problem } of readRecords(file)) {
    summary.read += 1
    if (problem !== undefined) {
      summary.rejected += 1
      rejects.push([String(line), problem, ''])
      continue
    }
    const parsed = RedfinZipRowSchema.safeParse(record)
    if (!parsed.success) {
      summary.rejected += 1
      rejects.push([
        String(line),
        parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
        JSON.stringify(record),
      ])
      continue
    }
    rows.set(parsed.data.zip_code, parsed.data)
  }
  if (rejects.length > 0) {
    fs.mkdirSync(path.dirname(rejectsFile), { recursive: true })
    fs.writeFileSync(rejectsFile, stringify([['line', 'reason', 'record'], ...rejects]))
    summary.rejectsFile = rejectsFile
  }
  if (!client || rows.size === 0) return summary
  const names = columns.map(([name]) => name)
  const updatable = names.filter((name) => name !== 'zip_code')
  const list = [...rows.values()]
  const result = await client.query<{ inserted: boolean }>(
    `insert into public.zip_market_benchmarks (${names.join(', ')})
     select * from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as u(${names.join(', ')})
     on conflict (zip_code) do update set ${updatable.map((name) => `${name} = excluded.${name}`).join(', ')}
     where (${updatable.map((name) => `zip_market_benchmarks.${name}`).join(', ')})
       is distinct from (${updatable.map((name) => `excluded.${name}`).join(', ')})
     returning (xmax = 0) as inserted`,
    columns.map(([, , field]) => list.map((row) => row[field] ?? null)),
  )
  summary.inserted = result.rows.filter((row) => row.inserted).length
  summary.updated = result.rows.length - summary.inserted
  summary.unchanged = rows.size - result.rows.length
  return summary
}
