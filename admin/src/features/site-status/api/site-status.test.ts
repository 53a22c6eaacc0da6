import { describe, expect, it } from 'vitest'

import { deriveSiteStatus, isLiveAfter, newestStartedBuildId, siteStatusPollMs, type SiteBuildRow } from './site-status'

const row = (id: number, status: SiteBuildRow['status'], extra: Partial<SiteBuildRow> = {}): SiteBuildRow => ({
  id,
  status,
  trigger_reason: `reason ${id}`,
  requested_at: `2026-11-21T10:0${id}:00Z`,
  started_at: status === 'queued' || status === 'requested' ? null : `2026-11-21T10:0${id}:30Z`,
  finished_at: status === 'succeeded' || status === 'failed' ? `2026-11-21T10:0${id}:50Z` : null,
  log_tail: null,
  ...extra,
})

describe('deriveSiteStatus', () => {
  it('is live with no builds recorded or when the newest build succeeded', () => {
    expect(deriveSiteStatus([])).toEqual({ kind: 'live' })
    expect(deriveSiteStatus([row(1, 'failed'), row(2, 'succeeded')])).toEqual({ kind: 'live' })
  })

  it('is rebuilding since the running build started, even when an older row failed', () => {
    expect(deriveSiteStatus([row(1, 'failed'), row(2, 'building'), row(3, 'queued')])).toEqual({
      kind: 'rebuilding',
      since: '2026-11-21T10:02:30Z',
    })
  })

  it('is rebuilding since the oldest queued request when nothing runs yet', () => {
    expect(deriveSiteStatus([row(4, 'queued'), row(3, 'queued'), row(2, 'succeeded')])).toEqual({
      kind: 'rebuilding',
      since: '2026-11-21T10:03:00Z',
    })
  })

  it('is rebuilding right after a saved change, before its build row appears, and not after the timeout', () => {
    const at = Date.parse('2026-11-21T11:00:00Z')
    const rows = [row(2, 'succeeded')]
    expect(deriveSiteStatus(rows, { afterId: 2, at }, at + 500)).toEqual({
      kind: 'rebuilding',
      since: '2026-11-21T11:00:00.000Z',
    })
    expect(deriveSiteStatus(rows, { afterId: 2, at }, at + 31_000)).toEqual({ kind: 'live' })
    // the build came and went: its row decides
    expect(deriveSiteStatus([...rows, row(3, 'succeeded')], { afterId: 2, at }, at + 5_000)).toEqual({ kind: 'live' })
  })

  it('reports a failed newest build with its row (for the log tail)', () => {
    const failed = row(2, 'failed', { log_tail: 'boom' })
    expect(deriveSiteStatus([row(1, 'succeeded'), failed])).toEqual({ kind: 'failed', build: failed })
  })

  it('reports a build-hook request (production) as requested, not as live', () => {
    expect(deriveSiteStatus([row(1, 'requested'), row(2, 'requested')])).toEqual({
      kind: 'requested',
      requestedAt: '2026-11-21T10:02:00Z',
    })
  })

  it('polls every second while rebuilding', () => {
    expect(siteStatusPollMs({ kind: 'rebuilding', since: 'x' })).toBe(1_000)
    expect(siteStatusPollMs({ kind: 'live' })).toBe(10_000)
  })
})

describe('isLiveAfter', () => {
  it('needs a succeeded build after the save and nothing pending', () => {
    expect(isLiveAfter([row(1, 'succeeded')], 1, { kind: 'live' })).toBe(false)
    expect(isLiveAfter([row(1, 'succeeded'), row(2, 'succeeded')], 1, { kind: 'live' })).toBe(true)
    expect(isLiveAfter([row(2, 'succeeded'), row(3, 'building')], 1, { kind: 'rebuilding', since: 'x' })).toBe(false)
    expect(newestStartedBuildId([row(4, 'failed'), row(2, 'succeeded')])).toBe(4)
    expect(newestStartedBuildId(undefined)).toBe(0)
  })

  it('counts a build that was queued when the post was saved: it reads the database when it starts', () => {
    const atSave = [row(2, 'succeeded'), row(3, 'queued')]
    const afterId = newestStartedBuildId(atSave)
    expect(afterId).toBe(2)
    expect(isLiveAfter([row(2, 'succeeded'), row(3, 'succeeded')], afterId, { kind: 'live' })).toBe(true)
    expect(newestStartedBuildId([row(2, 'succeeded'), row(3, 'building')])).toBe(3)
  })
})
