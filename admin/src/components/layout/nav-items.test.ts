import { describe, expect, it } from 'vitest'

import { isNavItemActive } from './nav-items'
import { readSidebarExpanded } from './sidebar-state'

describe('isNavItemActive', () => {
  it('matches the exact path and paths below it', () => {
    expect(isNavItemActive('/admin/blog', '/admin/blog')).toBe(true)
    expect(isNavItemActive('/admin/blog', '/admin/blog/123')).toBe(true)
    expect(isNavItemActive('/admin/blog', '/admin/blogger')).toBe(false)
  })
  it('highlights the Dashboard only on /admin itself', () => {
    expect(isNavItemActive('/admin', '/admin')).toBe(true)
    expect(isNavItemActive('/admin', '/admin/blog')).toBe(false)
  })
})

describe('readSidebarExpanded', () => {
  it('is expanded unless the cookie says false', () => {
    expect(readSidebarExpanded('')).toBe(true)
    expect(readSidebarExpanded('a=1; sidebar_state=false')).toBe(false)
    expect(readSidebarExpanded('sidebar_state=true')).toBe(true)
  })
})
