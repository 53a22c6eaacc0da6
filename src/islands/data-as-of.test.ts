/**
 * "Data as of" is the data date (the latest close date when the figures were written), not the end of the metrics
 * window: the window runs in whole calendar months, so on any day but a month's last the two differ, and a page that
 * printed the window's end would claim data the site does not have yet. Rendered the way the profile page and the
 * report PDF are, from a figures row whose data date falls mid-month.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'

import type { AgentProfile, AgentRow, FiguresRow } from '../lib/agent-profile'
import { reportFigureParts } from '@shared/agent-report-figures.ts'
import { AgentProfileView } from './agent-profile-view'

const agentId = '11111111-1111-4111-8111-111111111111'
const figures = {
  agent_id: agentId,
  window_start: '2024-11-01',
  window_end: '2026-10-31',
  data_date: '2026-10-14',
  last_close_date: '2026-10-14',
  sources: ['demo'],
  listing_sales: 6,
  listing_sides: 6,
  listing_volume: 3_000_000,
  sale_to_list_n: 6,
  sale_to_list_median: 100.5,
  total_sales: 6,
  total_sides: 6,
  total_volume: 3_000_000,
  buyer_sales: 0,
  buyer_sides: 0,
  primary_zip_code: '78704',
  zip_rank: 1,
  zip_agents: 3,
} as unknown as FiguresRow

const agent = {
  id: agentId,
  name: 'Dana Example',
  brokerage: 'Example Realty',
  city: 'Austin',
  state: 'TX',
  zip_code: '78704',
  metrics_window_start: '2024-11-01',
  metrics_window_end: '2026-10-31',
  service_areas: [],
  specialties: [],
  languages: [],
} as unknown as AgentRow

const profile: AgentProfile = { agent, figures, sales: [], benchmark: null, synthetic: false, quarters: [] }

describe('Data as of', () => {
  it('the profile prints the data date, and the window to its month end', () => {
    const html = renderToStaticMarkup(createElement(AgentProfileView, { profile }))
    const line = /data-testid="data-as-of">(.*?)<\/p>/.exec(html)?.[1] ?? ''
    expect(line).toContain('Data as of Oct 14, 2026')
    expect(line).not.toContain('Oct 31, 2026')
    expect(html).toContain('Oct 31, 2026')
  })

  it('the report prints the data date and keeps the window apart', () => {
    const parts = reportFigureParts(figures, null, 'https://example.com')
    expect(parts.dataAsOf).toMatch(/^Data as of Oct 14, 2026\b/)
    expect(parts.window).toEqual({ start: '2024-11-01', end: '2026-10-31' })
  })
})
