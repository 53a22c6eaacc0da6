import { describe, expect, it } from 'vitest'
import { schemaCacheReloader } from './lite-adapter.ts'

/**
 * A stand-in for lite's connection as the reloader uses it: `introspect({ useCache: false })` reads the "catalog"
 * (the next answer in `reads`), stores it as the cache and returns it; a failed read returns a new empty schema and
 * stores nothing, as lite does.
 */
function fakeConnection(reads: Array<'ok' | 'fail'>, gate?: Promise<void>) {
  const connection = {
    introspection: { version: 0 } as unknown,
    reads: 0,
    async introspect() {
      await gate
      const outcome = reads[connection.reads] ?? 'ok'
      connection.reads += 1
      if (outcome === 'fail') return { tables: [] }
      connection.introspection = { version: connection.reads }
      return connection.introspection
    },
  }
  return connection
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('schema cache reloads', () => {
  it('keep answering from the previous cache while a failed read is retried, then swap in the new one', async () => {
    const connection = fakeConnection(['fail', 'fail', 'ok'])
    const lines: string[] = []
    schemaCacheReloader(connection, (line) => lines.push(line))()
    await settle(50)
    // one failed read: the cache is still the previous schema, never an empty one
    expect(connection.introspection).toEqual({ version: 0 })
    await settle(600)
    expect(connection.reads).toBe(3)
    expect(connection.introspection).toEqual({ version: 3 })
    expect(lines).toEqual([])
  })

  it('runs one read at a time, and one more after it for every notice that came during it', async () => {
    let open!: () => void
    const connection = fakeConnection([], new Promise<void>((resolve) => (open = resolve)))
    const reload = schemaCacheReloader(connection, () => {})
    reload()
    reload()
    reload()
    open()
    await settle(50)
    expect(connection.reads).toBe(2)
    expect(connection.introspection).toEqual({ version: 2 })
  })

  it('gives up after 10 failed reads, keeping the previous cache, and says so', async () => {
    const connection = fakeConnection(Array.from({ length: 10 }, () => 'fail' as const))
    const lines: string[] = []
    schemaCacheReloader(connection, (line) => lines.push(line))()
    await settle(2_300)
    expect(connection.reads).toBe(10)
    expect(connection.introspection).toEqual({ version: 0 })
    expect(lines).toEqual(['schema cache reload failed 10 times; answering from the previous schema'])
  })
})
