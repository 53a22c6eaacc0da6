/**
 * The importer on a synthesized excerpt in the format of a Redfin "recently sold" export, through
 * supabase/data/mappings/redfin-sold.json: mapping, the public-record row skipped by the mapping's skip rule (not
 * rejected), rejects with reasons, duplicates merged, NULL for missing values, and idempotence (a second import
 * changes nothing).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMapping } from '../../scripts/lib/import/mapping.ts'
import { runImport } from '../../scripts/lib/import/run-import.ts'
import { sql, testEnv } from '../support/env.ts'

const fixture = path.resolve(import.meta.dirname, '../fixtures/import/redfin-sold-sample.csv')
// a source name of our own, so the rows are ours to delete whatever else imports Redfin files
const mapping = {
  ...readMapping(path.resolve(import.meta.dirname, '../../supabase/data/mappings/redfin-sold.json')),
  source: `redfin-test-${Date.now()}`,
}
let dir: string
let file: string

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-redfin-'))
  file = path.join(dir, 'sold.csv')
  fs.copyFileSync(fixture, file)
})

afterAll(async () => {
  await sql(`delete from public.properties where source = $1`, [mapping.source])
  await sql(`delete from public.import_runs where source = $1`, [mapping.source])
  fs.rmSync(dir, { recursive: true, force: true })
})

// 2 of the 7 sample rows are rejects on purpose; rejects go to our temporary folder
const importOnce = () =>
  runImport({
    file,
    mapping,
    databaseUrl: testEnv.databaseUrl,
    maxRejectRate: 0.5,
    rejectsFile: path.join(dir, 'sold.rejects.csv'),
  })

describe('import of a Redfin sold export', () => {
  it('imports valid rows, skips the public-record row with its reason, merges the duplicate and rejects the rest', async () => {
    const summary = await importOnce()
    expect(summary).toMatchObject({
      resource: 'Property',
      read: 7,
      skipped: 1,
      rejected: 2,
      duplicates: 1,
      inserted: 3,
      updated: 0,
      unchanged: 0,
    })
    expect(summary.skips).toEqual([
      {
        reason: 'public-record row: no sale price',
        count: 1,
        rows: [{ line: 6, key: 'https://example.com/MA/Testville/31-Mock-Ln-00902/unit-1/home/4' }],
      },
    ])
    expect(
      await sql(`select status, rows_read, rows_skipped, rows_rejected from public.import_runs where id = $1`, [
        summary.runId,
      ]),
    ).toEqual([{ status: 'succeeded', rows_read: 7, rows_skipped: 1, rows_rejected: 2 }])
  })

  it('applies with the default 5 % limit when only skip-rule rows are left out', async () => {
    const skipsOnly = path.join(dir, 'skips-only.csv')
    const lines = fs.readFileSync(fixture, 'utf8').trim().split('\n')
    // the header, the three good rows and the public-record row: 1 of 5 would be 20 % if skips counted as rejects
    fs.writeFileSync(skipsOnly, [...lines.slice(0, 5), lines[5]!].join('\n') + '\n')
    const summary = await runImport({
      file: skipsOnly,
      mapping,
      databaseUrl: testEnv.databaseUrl,
      rejectsFile: path.join(dir, 'skips-only.rejects.csv'),
    })
    expect(summary).toMatchObject({ read: 5, skipped: 1, rejected: 0, rejectsFile: null })
    expect(fs.existsSync(path.join(dir, 'skips-only.rejects.csv'))).toBe(false)
  })

  it('writes each reject with its line number and the reason', () => {
    const rejects = fs.readFileSync(path.join(dir, 'sold.rejects.csv'), 'utf8').trim().split('\n')
    expect(rejects[0]).toMatch(/^line,reason,date_sold,price,original_price/)
    expect(rejects.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
      '7,ListPrice: must be a positive number (USD)',
      '8,PostalCode: unknown ZIP format (expected 12345 or 12345-6789)',
    ])
  })

  it('stores list price from price, sale price from original_price, and NULL where the file is blank', async () => {
    const rows = await sql(
      `select address, list_price::float8, sale_price::float8, close_price::float8, sale_date::text, close_date::text,
              days_on_market, square_feet, bedrooms, bathrooms::float8, zip_code, state, standard_status, listing_key
       from public.properties where source = $1 order by sale_date`,
      [mapping.source],
    )
    expect(rows).toHaveLength(3)
    expect(rows[0]).toEqual({
      address: '10 Example Ave',
      list_price: 600000,
      sale_price: 630000,
      close_price: 630000,
      sale_date: '2024-07-01',
      close_date: '2024-07-01',
      days_on_market: 21,
      square_feet: 1500,
      bedrooms: 3,
      bathrooms: 1.5,
      zip_code: '00901',
      state: 'MA',
      standard_status: 'Closed',
      listing_key: 'https://example.com/MA/Testville/10-Example-Ave-00901/home/1',
    })
    expect(rows[1]).toMatchObject({ address: '22 Sample St', square_feet: null, bedrooms: null, bathrooms: null })
    // the scraped row lost its street name: the town keeps the address recognisable
    expect(rows[2]).toMatchObject({ address: '7, Testville, MA 00902', sale_price: 850000 })
  })

  it('changes nothing on a second import of the same file', async () => {
    const before = await sql(`select max(updated_at)::text as stamp from public.properties where source = $1`, [
      mapping.source,
    ])
    const summary = await importOnce()
    expect(summary).toMatchObject({ read: 7, skipped: 1, rejected: 2, inserted: 0, updated: 0, unchanged: 3 })
    expect(
      await sql(`select max(updated_at)::text as stamp from public.properties where source = $1`, [mapping.source]),
    ).toEqual(before)
  })

  it('updates only the row whose values changed', async () => {
    fs.writeFileSync(file, fs.readFileSync(fixture, 'utf8').replace('1500,4000,3,1.5', '1550,4000,3,1.5'))
    const summary = await importOnce()
    expect(summary).toMatchObject({ inserted: 0, updated: 1, unchanged: 2 })
    expect(
      await sql(`select square_feet from public.properties where source = $1 and address = '10 Example Ave'`, [
        mapping.source,
      ]),
    ).toEqual([{ square_feet: 1550 }])
  })

  it('writes nothing on a dry run', async () => {
    fs.writeFileSync(file, fs.readFileSync(fixture, 'utf8').replace('1500,4000,3,1.5', '1600,4000,3,1.5'))
    const summary = await runImport({
      file,
      mapping,
      dryRun: true,
      maxRejectRate: 0.5,
      rejectsFile: path.join(dir, 'dry.rejects.csv'),
    })
    expect(summary).toMatchObject({ read: 7, skipped: 1, rejected: 2, inserted: 0, updated: 0 })
    expect(
      await sql(`select square_feet from public.properties where source = $1 and address = '10 Example Ave'`, [
        mapping.source,
      ]),
    ).toEqual([{ square_feet: 1550 }])
  })
})
