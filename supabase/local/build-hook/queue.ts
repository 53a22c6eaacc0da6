/**
 * Coalescing build requests, as a static host's build hook does: while a build runs, any number of requests make
 * exactly one more build after it, which carries all their reasons.
 *
 * Optionally a build also waits for requests to settle: it starts only once `settleMs` have passed without another
 * request (and never later than `maxSettleMs` after its first request), so a burst of data changes (an import, the
 * metrics refresh that follows it, a clean-up) makes one build instead of one per change. A host starts at once,
 * which is the default (`settleMs` 0).
 */

/** A build not started yet: why it was asked for, and its site_builds row (id, or null when not recorded). */
export interface PendingBuild {
  reasons: string[]
  row: Promise<number | null>
}

/** How long a pending build waits for more requests, in ms. */
export interface SettleOptions {
  /** Quiet time after the newest request before the build starts (default 0: start at once). */
  settleMs?: number
  /** Longest wait after the build's first request, however busy (default 15,000). */
  maxSettleMs?: number
}

export interface BuildQueue {
  request(reason: string): void
  /** Resolves when no build is running or waiting. */
  idle(): Promise<void>
  /** No new build starts; resolves when the running one has finished. */
  stop(): Promise<void>
}

/**
 * `queued` records a new pending build, `requeued` a pending one that got another reason, `run` runs one build (it
 * must not throw: a failure is its own to record).
 */
export function createBuildQueue(
  handlers: {
    queued(reasons: readonly string[]): Promise<number | null>
    requeued(id: number, reasons: readonly string[]): Promise<void>
    run(build: PendingBuild): Promise<void>
  },
  settle: SettleOptions = {},
): BuildQueue {
  const settleMs = settle.settleMs ?? 0
  const maxSettleMs = settle.maxSettleMs ?? 15_000
  let pending: PendingBuild | null = null
  let firstAt = 0
  let lastAt = 0
  let running: Promise<void> | null = null
  let stopped = false
  let wake: (() => void) | null = null

  /** Resolves once the pending build's requests have settled, or at stop. */
  const settled = async () => {
    for (;;) {
      const waitMs = Math.min(lastAt + settleMs, firstAt + maxSettleMs) - Date.now()
      if (waitMs <= 0 || stopped) return
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      wake = null
    }
  }

  const drain = async () => {
    while (pending && !stopped) {
      if (settleMs > 0) await settled()
      if (stopped) break
      const build = pending
      pending = null
      await handlers.run(build)
    }
    running = null
  }

  return {
    request(reason) {
      if (stopped) return
      lastAt = Date.now()
      if (pending) {
        const build = pending
        build.reasons.push(reason)
        void build.row.then((id) => {
          if (id !== null && pending === build) void handlers.requeued(id, build.reasons)
        })
        return
      }
      const reasons = [reason]
      firstAt = lastAt
      pending = { reasons, row: handlers.queued(reasons) }
      running ??= drain()
    },
    async idle() {
      while (running) await running
    },
    async stop() {
      stopped = true
      wake?.()
      while (running) await running
    },
  }
}
