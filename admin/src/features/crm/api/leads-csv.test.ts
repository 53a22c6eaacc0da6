import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'

import type { Lead } from './crm-schemas'
import { buildLeadsCsv, LEAD_CSV_COLUMNS, leadsExportFileName, neutralizeFormula } from './leads-csv'

function lead(overrides: Partial<Lead> = {}): Lead {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    full_name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: null,
    property_address: null,
    agent_id: null,
    agent_name: null,
    agent_location: null,
    status: 'pending',
    notes: null,
    // local time, so the expected 'Created' does not depend on the machine's time zone
    created_at: new Date(2026, 2, 5, 9, 7).toISOString(),
    updated_at: new Date(2026, 2, 5, 9, 7).toISOString(),
    contacted_at: null,
    report_sent_at: null,
    report_error: null,
    ...overrides,
  }
}

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+1 555 0100', '-2', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with an apostrophe', (value) => {
    expect(neutralizeFormula(value)).toBe(`'${value}`)
  })
  it.each(['Ada', '', ' =not first', "'already"])('leaves %j alone', (value) => {
    expect(neutralizeFormula(value)).toBe(value)
  })
})

describe('buildLeadsCsv', () => {
  it('writes the header, one CRLF row per lead and the created time as yyyy-MM-dd HH:mm', () => {
    const csv = buildLeadsCsv([
      lead({ phone: '555-0100', property_address: '1 Main St', agent_name: 'Jane Roe', agent_location: 'Austin, TX', status: 'contacted', notes: 'Call back' }),
    ])
    expect(csv).toBe(
      `${LEAD_CSV_COLUMNS.join(',')}\r\n` +
        'Ada Lovelace,ada@example.com,555-0100,1 Main St,Jane Roe,"Austin, TX",Contacted,Call back,2026-03-05 09:07\r\n',
    )
  })

  it('quotes commas, quotes and line breaks (RFC 4180) and neutralizes formulas after quoting survives a parse', () => {
    const evil = '=HYPERLINK("http://x.test","click"), now'
    const csv = buildLeadsCsv([lead({ full_name: evil, notes: 'line 1\nline 2', agent_location: '@home', phone: '+1 555 0100' })])
    expect(csv).toContain(`"'=HYPERLINK(""http://x.test"",""click""), now"`)
    const [header, row] = parse(csv, { relax_column_count: false }) as string[][]
    expect(header).toEqual([...LEAD_CSV_COLUMNS])
    expect(row).toEqual([`'${evil}`, 'ada@example.com', "'+1 555 0100", '', '', "'@home", 'Pending', 'line 1\nline 2', '2026-03-05 09:07'])
  })

  it('writes only the header for no leads', () => {
    expect(buildLeadsCsv([])).toBe(`${LEAD_CSV_COLUMNS.join(',')}\r\n`)
  })
})

describe('leadsExportFileName', () => {
  it('names the file after the local day', () => {
    expect(leadsExportFileName(new Date(2026, 0, 9, 23, 59))).toBe('leads-export-2026-01-09.csv')
  })
})
