import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createBuildQueue, type PendingBuild, type SettleOptions } from './queue.ts'

/** A queue whose builds take `buildMs` each and are recorded with the time (fake clock) each started. */
function queueWith(settle: SettleOptions, buildMs = 10_000) {
  const started: { at: number; reasons: string[] }[] = []
  let nextId = 1
  const queue = createBuildQueue(
    {
      queued: async () => nextId++,
      requeued: async () => {},
      run: async (build: PendingBuild) => {
        started.push({ at: Date.now(), reasons: [...build.reasons] })
        await new Promise((resolve) => setTimeout(resolve, buildMs))
      },
    },
    settle,
  )
  return { queue, started }
}

describe('build queue', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(0)
  })
  afterEach(() => vi.useRealTimers())

  it('starts at once by default, and requests during a build make exactly one more', async () => {
    const { queue, started } = queueWith({})
    queue.request('a')
    await vi.advanceTimersByTimeAsync(0)
    queue.request('b')
    queue.request('c')
    await vi.advanceTimersByTimeAsync(20_000)
    expect(started).toEqual([
      { at: 0, reasons: ['a'] },
      { at: 10_000, reasons: ['b', 'c'] },
    ])
  })

  it('with settleMs, a burst makes one build that starts once the requests have been quiet that long', async () => {
    const { queue, started } = queueWith({ settleMs: 3000 })
    queue.request('agents insert')
    await vi.advanceTimersByTimeAsync(2000)
    queue.request('agents update')
    await vi.advanceTimersByTimeAsync(2900)
    expect(started).toEqual([])
    await vi.advanceTimersByTimeAsync(100)
    expect(started).toEqual([{ at: 5000, reasons: ['agents insert', 'agents update'] }])
  })

  it('never waits longer than maxSettleMs after the first request, however busy', async () => {
    const { queue, started } = queueWith({ settleMs: 3000, maxSettleMs: 7000 })
    for (let at = 0; at < 12_000; at += 1000) {
      queue.request(`change at ${at}`)
      await vi.advanceTimersByTimeAsync(1000)
    }
    expect(started[0]?.at).toBe(7000)
    expect(started[0]?.reasons).toHaveLength(7)
  })

  it('a build queued behind a running one starts when it ends if its requests are already quiet', async () => {
    const { queue, started } = queueWith({ settleMs: 3000 })
    queue.request('a')
    await vi.advanceTimersByTimeAsync(3000)
    queue.request('b')
    await vi.advanceTimersByTimeAsync(20_000)
    expect(started.map((build) => build.at)).toEqual([3000, 13_000])
  })

  it('stop() while a build waits to settle starts nothing', async () => {
    const { queue, started } = queueWith({ settleMs: 3000 })
    queue.request('a')
    await vi.advanceTimersByTimeAsync(1000)
    await queue.stop()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(started).toEqual([])
  })
})
