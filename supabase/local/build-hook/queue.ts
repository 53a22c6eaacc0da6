/**
 * Coalescing build requests, as a static host's build hook does: while a build runs, any number of requests make
 * exactly one more build after it, which carries all their reasons.
 */

/** A build not started yet: why it was asked for, and its site_builds row (id, or null when not recorded). */
export interface PendingBuild {
  reasons: string[]
  row: Promise<number | null>
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
export function createBuildQueue(handlers: {
  queued(reasons: readonly string[]): Promise<number | null>
  requeued(id: number, reasons: readonly string[]): Promise<void>
  run(build: PendingBuild): Promise<void>
}): BuildQueue {
  let pending: PendingBuild | null = null
  let running: Promise<void> | null = null
  let stopped = false

  const drain = async () => {
    while (pending && !stopped) {
      const build = pending
      pending = null
      await handlers.run(build)
    }
    running = null
  }

  return {
    request(reason) {
      if (stopped) return
      if (pending) {
        const build = pending
        build.reasons.push(reason)
        void build.row.then((id) => {
          if (id !== null && pending === build) void handlers.requeued(id, build.reasons)
        })
        return
      }
      const reasons = [reason]
      pending = { reasons, row: handlers.queued(reasons) }
      running ??= drain()
    },
    async idle() {
      while (running) await running
    },
    async stop() {
      stopped = true
      while (running) await running
    },
  }
}
