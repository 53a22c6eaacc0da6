import { describe, expect, it } from 'vitest'

import { NAV_ITEMS, sectionTitle } from './nav-items'
import { readSidebarExpanded } from './sidebar-state'

describe('NAV_ITEMS', () => {
  it('lists every section once, Dashboard first', () => {
    expect(NAV_ITEMS.map((item) => item.label)).toEqual([
      'Dashboard',
      'Blog Management',
      'Calendar',
      'CRM',
      'Agents',
      'Analytics',
      'Builds',
      'Imports',
      'Audit Log',
      'Users',
      'Database',
      'Settings',
    ])
    expect(new Set(NAV_ITEMS.map((item) => item.to)).size).toBe(NAV_ITEMS.length)
  })

  it("gives the dashboard's six tools a card, in sidebar order", () => {
    expect(NAV_ITEMS.flatMap((item) => ('tool' in item ? [item.tool.title] : []))).toEqual([
      'Blog Management',
      'Content Calendar',
      'Analytics',
      'User Management',
      'Database',
      'Settings',
    ])
  })
})

describe('sectionTitle', () => {
  it("titles a section's page with its sidebar label, and nothing else", () => {
    expect(sectionTitle('/')).toBe('Dashboard')
    expect(sectionTitle('/crm')).toBe('CRM')
    expect(sectionTitle('/login')).toBeUndefined()
    expect(sectionTitle('')).toBeUndefined()
  })
})

describe('readSidebarExpanded', () => {
  it('is expanded unless the cookie says false', () => {
    expect(readSidebarExpanded('')).toBe(true)
    expect(readSidebarExpanded('a=1; sidebar_state=false')).toBe(false)
    expect(readSidebarExpanded('sidebar_state=true')).toBe(true)
  })
})
