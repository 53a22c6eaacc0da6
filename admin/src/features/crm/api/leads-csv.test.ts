import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'

import type { Lead } from './crm-schemas'
import { leadFixture } from './lead-fixture'
import { buildLeadsCsv, LEAD_CSV_COLUMNS, leadsExportFileName, neutralizeFormula } from './leads-csv'

// local time, so the expected 'Created' does not depend on the machine's time zone
const requested = new Date(2026, 2, 5, 9, 7).toISOString()

function lead(overrides: Partial<Lead> = {}): Lead {
  const base = { id: '00000000-0000-4000-8000-000000000001', full_name: 'Ada Lovelace', email: 'ada@example.com' }
  return leadFixture({ ...base, created_at: requested, updated_at: requested, ...overrides })
}

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+HYPERLINK("x")', '-A1', '+1 555 cmd', '@SUM(A1)', '\tx', '\rx'])(
    'prefixes %j with an apostrophe',
    (value) => {
      expect(neutralizeFormula(value)).toBe(`'${value}`)
    },
  )
  it.each(['Ada', '', ' =not first', "'already", '+1 512-555-0100', '+1 (512) 555 0100', '-2.5'])(
    'leaves %j alone',
    (value) => {
      expect(neutralizeFormula(value)).toBe(value)
    },
  )
})

describe('buildLeadsCsv', () => {
  it("writes the seed's columns first, one CRLF row per lead and the request day as yyyy-MM-dd", () => {
    expect(LEAD_CSV_COLUMNS.slice(0, 8)).toEqual([
      'Date',
      'Name',
      'Email',
      'Phone',
      'Address',
      'Agent Name',
      'Agent Location',
      'Status',
    ])
    const owner = '00000000-0000-4000-8000-0000000000aa'
    const csv = buildLeadsCsv(
      [
        lead({
          phone: '+1 512-555-0100',
          property_address: '1 Main St',
          agent_name: 'Jane Roe',
          agent_location: 'Austin, TX',
          status: 'contacted',
          owner_id: owner,
          follow_up_on: '2026-03-09',
          source_page: '/agents/jane-roe',
          utm_source: 'news',
          utm_term: 'austin agents',
          utm_content: 'banner-b',
        }),
      ],
      new Map([[owner, 'op@example.com']]),
    )
    expect(csv).toBe(
      `${LEAD_CSV_COLUMNS.join(',')}\r\n` +
        '2026-03-05,Ada Lovelace,ada@example.com,+1 512-555-0100,1 Main St,Jane Roe,"Austin, TX",Contacted,op@example.com,2026-03-09,/agents/jane-roe,news,,,austin agents,banner-b\r\n',
    )
  })

  it('quotes commas, quotes and line breaks (RFC 4180) and neutralizes formulas after quoting survives a parse', () => {
    const evil = '=HYPERLINK("http://x.test","click"), now'
    const csv = buildLeadsCsv([
      lead({ full_name: evil, property_address: 'line 1\nline 2', agent_location: '@home', phone: '+1 555 0100' }),
    ])
    expect(csv).toContain(`"'=HYPERLINK(""http://x.test"",""click""), now"`)
    const [header, row] = parse(csv, { relax_column_count: false }) as string[][]
    expect(header).toEqual([...LEAD_CSV_COLUMNS])
    expect(row).toEqual([
      '2026-03-05',
      `'${evil}`,
      'ada@example.com',
      '+1 555 0100',
      'line 1\nline 2',
      '',
      "'@home",
      'Pending',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ])
  })

  it('writes only the header for no leads', () => {
    expect(buildLeadsCsv([])).toBe(`${LEAD_CSV_COLUMNS.join(',')}\r\n`)
  })
})

describe('leadsExportFileName', () => {
  it('names the file after the local day', () => {
    expect(leadsExportFileName(new Date(2026, 0, 9, 23, 59))).toBe('report-requests-2026-01-09.csv')
  })
})
