/**
 * The importer fails loudly and writes nothing when a run is not sound, driven through the real CLI (`scripts/import.ts`) against the test database: a mapping typo, a `;`-delimited file,
 * too many rejects, an all-rejected run, a file cut inside its last field, an over-long line, records over the size
 * cap (rejected with their line, the rest imported), binary input, and where
 * the rejects file goes. Every run uses its own source name, so the rows are ours; afterAll removes them.
 */
import { parse as parseCsv } from 'csv-parse/sync'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultRejectsDir } from '../../scripts/lib/import/run-import.ts'
import { sql, testEnv } from '../support/env.ts'
import { rootDir } from '../support/test-stack.ts'

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const mappingFile = path.join(rootDir, 'supabase/data/mappings/redfin-sold.json')
const header =
  'date_sold,price,original_price,price_spread,square_footage,lot_size,number_bedrooms,number_bathrooms,year_built,property_type,street_number,street_name,city,state,zip_code,days_until_sold,is_short_sale,url'
const url = (source: string, i: number) => `https://example.com/${source}/${i}-Example-Ave-00901/home/${i}`
/** A Redfin-format sold row that passes validation; `days` is its days_until_sold. */
const row = (source: string, i: number, days = 21) =>
  `1719835200000,600000,${630000 + i},30000,1500,4000,3,1.5,1925,residential,${i},Example Ave,Testville,MA,00901,${days},False,${url(source, i)}`
let dir: string
const sources: string[] = []
const rejectFiles: string[] = []

/** A per-test source and a mapping file naming it (the shipped Redfin mapping with one change applied). */
function mapping(name: string, change: (json: string) => string = (json) => json) {
  const source = `integrity-${name}-${run}`
  sources.push(source)
  const json = JSON.parse(change(fs.readFileSync(mappingFile, 'utf8'))) as Record<string, unknown>
  const file = path.join(dir, `${name}.mapping.json`)
  fs.writeFileSync(file, JSON.stringify({ ...json, source }))
  return { source, file }
}

/** Runs `npm run import` against the test database; returns exit code and output. */
function importCli(...args: string[]) {
  const result = spawnSync(path.join(rootDir, 'node_modules/.bin/tsx'), ['scripts/import.ts', ...args], {
    cwd: rootDir,
    env: { ...process.env, DATABASE_URL: testEnv.databaseUrl, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  })
  for (const match of `${result.stdout}${result.stderr}`.matchAll(/\(see ([^)\s]+\.rejects\.csv)/g))
    rejectFiles.push(match[1]!)
  return { code: result.status, stdout: result.stdout, stderr: result.stderr.replace(/^npm warn.*\n/gm, '') }
}

const rowsOf = (source: string) =>
  sql<{ source_record_id: string; days_on_market: number | null; updated_at: string }>(
    `select source_record_id, days_on_market, updated_at::text from public.properties where source = $1 order by source_record_id`,
    [source],
  )
const runsOf = (source: string) =>
  sql<Record<string, unknown>>(`select * from public.import_runs where source = $1 order by id`, [source])

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-integrity-'))
})

afterAll(async () => {
  await sql(`delete from public.properties where source = any($1)`, [sources])
  await sql(`delete from public.import_runs where source = any($1)`, [sources])
  for (const file of rejectFiles) fs.rmSync(file, { force: true })
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('mapping validation before any write', () => {
  it('a mapping naming a missing column exits 1 naming the field, the column and the closest headers, and changes no row', async () => {
    const good = mapping('typo')
    const file = path.join(dir, 'typo.csv')
    fs.writeFileSync(file, [header, ...Array.from({ length: 20 }, (_, i) => row(good.source, i + 1))].join('\n') + '\n')
    expect(importCli(file, '--map', good.file).code).toBe(0)
    const before = await rowsOf(good.source)
    expect(before).toHaveLength(20)
    expect(before.every((stored) => stored.days_on_market === 21)).toBe(true)

    const typo = path.join(dir, 'typo-days.mapping.json')
    fs.writeFileSync(typo, fs.readFileSync(good.file, 'utf8').replace('"days_until_sold"', '"days_until_sol"'))
    const result = importCli(file, '--map', typo)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`The mapping does not match the header of ${file}; nothing was imported:`)
    expect(result.stderr).toContain(
      'DaysOnMarket: column "days_until_sol" is not in the header; closest header names: "days_until_sold", "date_sold", "is_short_sale"',
    )
    expect(await rowsOf(good.source)).toEqual(before)
    const runs = await runsOf(good.source)
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'rejected'])
    expect(runs[1]).toMatchObject({ rows_read: 0, rows_inserted: 0, rows_updated: 0 })
    expect(runs[1]!.error).toContain('DaysOnMarket: column "days_until_sol" is not in the header')
  })

  it('sniffs a ;-delimited file and imports it like the comma one', async () => {
    const { source, file: map } = mapping('semicolon')
    const file = path.join(dir, 'semicolon.csv')
    fs.writeFileSync(
      file,
      [header, ...Array.from({ length: 5 }, (_, i) => row(source, i + 1))]
        .map((line) => line.replaceAll(',', ';'))
        .join('\n') + '\n',
    )
    const result = importCli(file, '--map', map)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/read {8}5\n {2}rejected {4}0\n/)
    expect((await rowsOf(source)).map((stored) => stored.days_on_market)).toEqual([21, 21, 21, 21, 21])
  })

  it('a wrong --delimiter makes the header one column: exit 1 with a hint, nothing written', async () => {
    const { source, file: map } = mapping('wrong-delimiter')
    const file = path.join(dir, 'wrong-delimiter.csv')
    fs.writeFileSync(file, [header, row(source, 1)].map((line) => line.replaceAll(',', ';')).join('\n') + '\n')
    const result = importCli(file, '--map', map, '--delimiter', ',')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('ListingKey: column "url" is not in the header')
    expect(result.stderr).toContain(
      'The header has a single column: is the delimiter right? (read with ","; set --delimiter)',
    )
    expect(await rowsOf(source)).toEqual([])
  })

  it('more rejects than --max-reject-rate: exit 1, nothing written, the run recorded as rejected', async () => {
    const { source, file: map } = mapping('threshold')
    const file = path.join(dir, 'threshold.csv')
    // 2 of 20 rows have a zero list price: 10 % rejected, over the default 5 %
    const lines = Array.from({ length: 20 }, (_, i) =>
      i < 2 ? row(source, i + 1).replace(',600000,', ',0,') : row(source, i + 1),
    )
    fs.writeFileSync(file, [header, ...lines].join('\n') + '\n')
    const result = importCli(file, '--map', map)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /2 of 20 records were rejected \(10\.0 %, over the 5\.0 % allowed by --max-reject-rate; see .+\); nothing was imported/,
    )
    expect(await rowsOf(source)).toEqual([])
    expect(await runsOf(source)).toMatchObject([
      { status: 'rejected', rows_read: 20, rows_rejected: 2, rows_inserted: 0 },
    ])

    const allowed = importCli(file, '--map', map, '--max-reject-rate', '10%')
    expect(allowed.code).toBe(0)
    expect(await rowsOf(source)).toHaveLength(18)
  })

  it('an all-rejected run exits 1 whatever the threshold', async () => {
    const { source, file: map } = mapping('all-rejected')
    const file = path.join(dir, 'all-rejected.csv')
    fs.writeFileSync(
      file,
      [header, row(source, 1).replace(',600000,', ',0,'), row(source, 2).replace(',600000,', ',0,')].join('\n') + '\n',
    )
    const result = importCli(file, '--map', map, '--max-reject-rate', '100%')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/All 2 records were rejected \(see .+\); nothing was imported/)
    expect(await rowsOf(source)).toEqual([])
  })
})

describe('strict parsing', () => {
  it('a file cut inside its last field stores no phantom listing; the full file then adds exactly that one', async () => {
    const { source, file: map } = mapping('truncated')
    const full = [header, ...Array.from({ length: 30 }, (_, i) => row(source, i + 1))].join('\n') + '\n'
    const cut = path.join(dir, 'truncated.csv')
    // cut inside the URL (the ListingKey) of the last record, as a copy interrupted mid-file would
    fs.writeFileSync(cut, full.slice(0, full.length - 12))
    const result = importCli(cut, '--map', map)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      'Warning: line 31: the file ends without a line end; the record was rejected because its last column may be cut short',
    )
    const stored = await rowsOf(source)
    expect(stored).toHaveLength(29)
    expect(stored.map((r) => r.source_record_id)).not.toContain(url(source, 30).slice(0, -11))

    const whole = path.join(dir, 'whole.csv')
    fs.writeFileSync(whole, full)
    expect(importCli(whole, '--map', map).code).toBe(0)
    expect((await rowsOf(source)).map((r) => r.source_record_id).sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => url(source, i + 1)).sort(),
    )
  })

  it('accepts a last record without line end when its last column is not read', async () => {
    const { source, file: map } = mapping('no-final-newline', (json) =>
      json.replace('"ListingKey": { "column": "url" }', '"ListingKey": { "column": "street_number" }'),
    )
    const file = path.join(dir, 'no-final-newline.csv')
    fs.writeFileSync(file, [header, ...Array.from({ length: 3 }, (_, i) => row(source, i + 1))].join('\n'))
    const result = importCli(file, '--map', map)
    // the import's own words when it fails (CI saw exit 1 once, with nothing else to go on)
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0)
    expect(result.stdout).toContain(
      'Warning: line 4: the file ends without a line end; the record was accepted (its last column is complete or not read)',
    )
    expect(await rowsOf(source)).toHaveLength(3)
  })

  it('a single line over the 1 MB cap stops at once with exit 1 and says it is not a CSV file', () => {
    const file = path.join(dir, 'one-line.csv')
    fs.writeFileSync(file, 'x'.repeat(3 * 1024 * 1024))
    const result = importCli(file)
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(
      `${file}: the first line is longer than the 1048576-byte record cap: not a CSV file with a header row; nothing was imported`,
    )
  })

  it('a 2 MB record among valid ones is rejected with its line and reason; the records after it keep their lines and are imported', async () => {
    const { source, file: map } = mapping('oversized')
    const file = path.join(dir, 'oversized.csv')
    // line 12: a record of three lines (a quoted street name with line breaks) and 2 MB; line 28: an ordinary reject
    const huge = row(source, 11).replace('Example Ave', `"${'y'.repeat(1024 * 1024)}\n${'y'.repeat(1024 * 1024)}\nAve"`)
    const lines = [
      header,
      ...Array.from({ length: 10 }, (_, i) => row(source, i + 1)),
      huge,
      ...Array.from({ length: 30 }, (_, i) => row(source, i + 12)),
    ]
    lines.splice(25, 1, row(source, 99).replace(',600000,', ',0,'))
    fs.writeFileSync(file, lines.join('\n') + '\n')
    const rejects = path.join(dir, 'oversized.rejects.csv')
    const result = importCli(file, '--map', map, '--rejects', rejects)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`rejected    2 (see ${rejects})`)
    const rejected = parseCsv(fs.readFileSync(rejects, 'utf8'), { relax_column_count: true }) as string[][]
    expect(rejected.map((columns) => columns.slice(0, 2))).toEqual([
      ['line', 'reason'],
      [
        '12',
        `the record is ${Buffer.byteLength(huge).toLocaleString('en-US')} bytes long, over the 1,048,576-byte record cap`,
      ],
      ['28', 'ListPrice: must be a positive number (USD)'],
    ])
    const stored = await rowsOf(source)
    expect(stored).toHaveLength(39)
    expect(stored.map((entry) => entry.source_record_id)).not.toContain(url(source, 11))
    const [recorded] = await runsOf(source)
    expect(recorded).toMatchObject({ status: 'succeeded', rows_read: 41, rows_inserted: 39, rows_rejected: 2 })
  })

  it('an oversize record that takes the rejects over --max-reject-rate: exit 1, named in the rejects, nothing written', async () => {
    const { source, file: map } = mapping('oversized-few')
    const file = path.join(dir, 'oversized-few.csv')
    const long = row(source, 2).replace('Example Ave', 'y'.repeat(1_100_000))
    fs.writeFileSync(file, [header, row(source, 1), long, row(source, 3)].join('\n') + '\n')
    const rejects = path.join(dir, 'oversized-few.rejects.csv')
    const result = importCli(file, '--map', map, '--rejects', rejects)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(
      `1 of 3 records were rejected (33.3 %, over the 5.0 % allowed by --max-reject-rate; see ${rejects}); nothing was imported`,
    )
    expect(fs.readFileSync(rejects, 'utf8')).toContain(
      `3,"the record is ${long.length.toLocaleString('en-US')} bytes long, over the 1,048,576-byte record cap"`,
    )
    expect(await rowsOf(source)).toEqual([])
  })

  it('NDJSON: a line over the cap is a reject with its line, the other lines are imported', async () => {
    const source = `integrity-ndjson-${run}`
    sources.push(source)
    const record = (i: number, street = 'Json Way') => ({
      ListingKey: `${source}-${i}`,
      StandardStatus: 'Closed',
      ListPrice: 500000,
      ClosePrice: 510000,
      CloseDate: '2026-01-15',
      UnparsedAddress: `${i} ${street}`,
      City: 'Fixture City',
      StateOrProvince: 'CO',
      PostalCode: '00801',
    })
    const file = path.join(dir, 'oversized.ndjson')
    const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify(record(i + 1)))
    lines[4] = JSON.stringify(record(5, 'z'.repeat(2 * 1024 * 1024)))
    fs.writeFileSync(file, lines.join('\n') + '\n')
    const rejects = path.join(dir, 'oversized-ndjson.rejects.csv')
    const result = importCli(file, '--source', source, '--rejects', rejects)
    expect(result.code).toBe(0)
    expect(fs.readFileSync(rejects, 'utf8')).toBe(
      `line,reason\n5,"the record is ${Buffer.byteLength(lines[4]!).toLocaleString('en-US')} bytes long, over the 1,048,576-byte record cap"\n`,
    )
    const stored = await rowsOf(source)
    expect(stored.map((entry) => entry.source_record_id)).toEqual(
      Array.from({ length: 30 }, (_, i) => `${source}-${i + 1}`)
        .filter((key) => key !== `${source}-5`)
        .sort(),
    )
  })

  it('binary input stops with "not a CSV/JSON file" and echoes none of its bytes', () => {
    const file = path.join(dir, 'archive.csv')
    const bytes = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00', 'latin1'),
      Buffer.from('\x1b]0;owned\x07\x1b[2J', 'latin1'),
      Buffer.alloc(2000, 0xfe),
    ])
    fs.writeFileSync(file, bytes)
    const result = importCli(file)
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(`${file}: not a CSV/JSON file (binary data at byte 5); nothing was imported`)
    // printable ASCII and line ends only: no escape sequence, no byte of the file
    const unprintable = [...`${result.stdout}${result.stderr}`].filter(
      (char) => char !== '\n' && (char < ' ' || char > '~'),
    )
    expect(unprintable).toEqual([])
  })
})

describe('rejects file', () => {
  it('goes under .data/import-rejects, not beside the input, and the summary prints its path', async () => {
    const { source, file: map } = mapping('rejects')
    const readOnly = path.join(dir, 'read-only')
    fs.mkdirSync(readOnly)
    const file = path.join(readOnly, 'sold.csv')
    fs.writeFileSync(
      file,
      [
        header,
        ...Array.from({ length: 25 }, (_, i) => row(source, i + 1)),
        row(source, 99).replace(',600000,', ',0,'),
      ].join('\n') + '\n',
    )
    fs.chmodSync(readOnly, 0o555)
    const result = importCli(file, '--map', map)
    fs.chmodSync(readOnly, 0o755)
    expect(result.code).toBe(0)
    const shown = /rejected {4}1 \(see (.+)\)/.exec(result.stdout)?.[1]
    expect(shown).toMatch(
      new RegExp(
        `^${defaultRejectsDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/sold\\.csv\\.\\d{8}T\\d{6}Z\\.rejects\\.csv$`,
      ),
    )
    expect(fs.readdirSync(readOnly)).toEqual(['sold.csv'])
    expect(fs.readFileSync(shown!, 'utf8')).toContain('27,ListPrice: must be a positive number (USD)')
    const [recorded] = await runsOf(source)
    expect(recorded).toMatchObject({
      status: 'succeeded',
      resource: 'Property',
      file_name: file,
      rows_read: 26,
      rows_inserted: 25,
      rows_rejected: 1,
      rejects_file: shown,
      file_sha256: createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
    })
  })

  it('--rejects names another file', () => {
    const { source, file: map } = mapping('rejects-option')
    const file = path.join(dir, 'sold-2.csv')
    fs.writeFileSync(
      file,
      [
        header,
        ...Array.from({ length: 25 }, (_, i) => row(source, i + 1)),
        row(source, 99).replace(',600000,', ',0,'),
      ].join('\n') + '\n',
    )
    const target = path.join(dir, 'out', 'my-rejects.csv')
    const result = importCli(file, '--map', map, '--rejects', target)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`rejected    1 (see ${target})`)
    expect(fs.existsSync(target)).toBe(true)
  })
})
