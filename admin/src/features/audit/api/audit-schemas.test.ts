import { describe, expect, it } from 'vitest'

import { AuditSearchSchema, fieldChanges, rowLabel, shortValue } from './audit-schemas'

describe('the audit log in words', () => {
  it('lists the changed fields of an update, before and after', () => {
    expect(
      fieldChanges({
        action: 'update',
        before: { status: 'pending', notes: null },
        after: { status: 'contacted', notes: 'left a voicemail' },
      }),
    ).toEqual([
      { field: 'status', before: 'pending', after: 'contacted' },
      { field: 'notes', before: '—', after: 'left a voicemail' },
    ])
  })

  it('lists what an insert set and what a delete removed, without the bookkeeping columns', () => {
    const row = { id: 'x', full_name: 'Pat', created_at: '2026-01-01', updated_at: '2026-01-01', status: 'pending' }
    expect(fieldChanges({ action: 'insert', before: null, after: row }).map((change) => change.field)).toEqual([
      'full_name',
      'status',
    ])
    expect(fieldChanges({ action: 'delete', before: row, after: null })).toEqual([
      { field: 'full_name', before: 'Pat', after: '—' },
      { field: 'status', before: 'pending', after: '—' },
    ])
  })

  it('shows a move to the trash as the deletion stamp', () => {
    expect(
      fieldChanges({
        action: 'trash',
        before: { id: 'x', full_name: 'Pat', deleted_at: null, deleted_by: null },
        after: { deleted_at: '2026-11-27T10:00:00Z', deleted_by: 'u1' },
      }),
    ).toEqual([
      { field: 'deleted_at', before: '—', after: '2026-11-27T10:00:00Z' },
      { field: 'deleted_by', before: '—', after: 'u1' },
    ])
  })

  it('shows a restore as the deletion stamp going away', () => {
    expect(
      fieldChanges({
        action: 'restore',
        before: { deleted_at: '2026-11-27T10:00:00Z', deleted_by: 'u1' },
        after: { id: 'x', full_name: 'Pat', deleted_at: null, deleted_by: null },
      }),
    ).toEqual([
      { field: 'deleted_at', before: '2026-11-27T10:00:00Z', after: '—' },
      { field: 'deleted_by', before: 'u1', after: '—' },
    ])
  })

  it('names the row by its name or title, else its id', () => {
    expect(rowLabel({ row_id: 'r1', before: { full_name: 'Pat Buyer' }, after: null })).toBe('Pat Buyer')
    expect(rowLabel({ row_id: 'r2', before: null, after: { title: 'Pricing in 02139' } })).toBe('Pricing in 02139')
    expect(rowLabel({ row_id: 'r3', before: { status: 'x' }, after: null })).toBe('r3')
  })

  it('keeps values to one short line', () => {
    expect(shortValue('a\n  b')).toBe('a b')
    expect(shortValue({ a: 1 })).toBe('{"a":1}')
    expect(shortValue('x'.repeat(200))).toHaveLength(120)
    expect(shortValue(null)).toBe('—')
  })

  it('reads the URL state, falling back on the defaults', () => {
    expect(AuditSearchSchema.parse({})).toEqual({ table: 'all', page: 1 })
    expect(AuditSearchSchema.parse({ table: 'report_requests', page: '3' })).toEqual({
      table: 'report_requests',
      page: 3,
    })
    expect(AuditSearchSchema.parse({ table: 'auth.users', page: '-1' })).toEqual({ table: 'all', page: 1 })
  })
})
