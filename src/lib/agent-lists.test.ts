import { describe, expect, it } from 'vitest'
import { COMPARE_STORAGE_KEY, parseCompareEntries, readCompare, toggleCompare, writeCompare } from './agent-lists'

const ids = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
  '44444444-4444-4444-8444-444444444444',
  '55555555-5555-4555-8555-555555555555',
]

function fakeStorage() {
  const values = new Map<string, string>()
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  }
}

describe('the compare tray', () => {
  it('keeps agents in the order picked, across reads (a reload), and takes one out again', () => {
    const store = fakeStorage()
    expect(toggleCompare({ id: ids[1]!, name: 'Ben' }, store)).toBe('added')
    expect(toggleCompare({ id: ids[0]!, name: 'Ava' }, store)).toBe('added')
    expect(readCompare(store)).toEqual([
      { id: ids[1], name: 'Ben' },
      { id: ids[0], name: 'Ava' },
    ])
    expect(JSON.parse(store.values.get(COMPARE_STORAGE_KEY)!).entries).toHaveLength(2)
    expect(toggleCompare({ id: ids[1]!, name: 'Ben' }, store)).toBe('removed')
    expect(readCompare(store)).toEqual([{ id: ids[0], name: 'Ava' }])
  })

  it('holds at most four agents: a fifth is refused and nothing changes', () => {
    const store = fakeStorage()
    for (const id of ids.slice(0, 4)) expect(toggleCompare({ id, name: 'Agent' }, store)).toBe('added')
    expect(toggleCompare({ id: ids[4]!, name: 'Fifth' }, store)).toBe('full')
    expect(readCompare(store).map((entry) => entry.id)).toEqual(ids.slice(0, 4))
    writeCompare(
      ids.map((id) => ({ id, name: 'Agent' })),
      'account',
      store,
    )
    expect(readCompare(store)).toHaveLength(4)
  })

  it('reads a tampered or broken entry safely: bad ids, duplicates and junk are dropped', () => {
    expect(parseCompareEntries('not json')).toEqual([])
    expect(parseCompareEntries(JSON.stringify({ entries: 'x' }))).toEqual([])
    expect(
      parseCompareEntries(
        JSON.stringify({
          entries: [
            { id: 'javascript:alert(1)', name: 'X' },
            { id: ids[0]!.toUpperCase(), name: '  Ava ' },
            { id: ids[0], name: 'Again' },
            { id: ids[1], name: 42 },
          ],
        }),
      ),
    ).toEqual([
      { id: ids[0], name: 'Ava' },
      { id: ids[1], name: 'Agent' },
    ])
  })
})
