/**
 * The build hook's record of its builds in public.site_builds (queued -> building -> succeeded | failed), written with
 * the service role through the REST API, where the admin reads it. A write the API never answered (a network error,
 * no PostgreSQL code) is tried again, three times at most; a failed write is then logged, never fatal: the site matters
 * more than its status.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import os from 'node:os'
import { stripVTControlCharacters } from 'node:util'

/** site_builds.trigger_reason holds at most this many characters. */
const REASON_CHARS = 2000
/** Lines and characters of build output kept in site_builds.log_tail. */
const LOG_TAIL_LINES = 60
const LOG_TAIL_CHARS = 8000

/**
 * The reasons of one build as one trigger_reason. When they do not fit, the newest are kept whole and the older ones
 * are counted ("(3 earlier requests) …"): a request that was just coalesced must stay findable by its reason.
 */
export function joinReasons(reasons: readonly string[]): string {
  const joined = reasons.join('; ')
  if (joined.length <= REASON_CHARS) return joined
  const kept: string[] = []
  let length = 0
  for (let i = reasons.length - 1; i >= 0; i--) {
    const reason = reasons[i]!.slice(0, REASON_CHARS - 40)
    if (length + reason.length + 2 > REASON_CHARS - 40) break
    kept.unshift(reason)
    length += reason.length + 2
  }
  return `(${reasons.length - kept.length} earlier requests) ${kept.join('; ')}`
}

/** Keeps the last lines (at most 60 lines, 8,000 characters) of a stream of output chunks, colour codes removed. */
export function logTail() {
  let lines: string[] = []
  let partial = ''
  return {
    push(chunk: string) {
      const text = partial + stripVTControlCharacters(chunk)
      const parts = text.split(/\r?\n/)
      partial = parts.pop() ?? ''
      lines.push(...parts)
      if (lines.length > LOG_TAIL_LINES * 2) lines = lines.slice(-LOG_TAIL_LINES)
    },
    text(): string {
      const all = [...lines, ...(partial ? [partial] : [])].slice(-LOG_TAIL_LINES).join('\n')
      return all.length > LOG_TAIL_CHARS ? all.slice(-LOG_TAIL_CHARS) : all
    },
  }
}

/** The machine and process of a builder, as site_builds.builder_host and builder_pid record them. */
export interface BuilderProcess {
  host: string
  pid: number
}

/**
 * Whether the builder that left a build open is gone: no builder recorded (rows of older builders), another machine
 * (a local builder's database serves one machine; such a row cannot be checked), or a process of this machine that no
 * longer runs (signal 0 fails with ESRCH; EPERM means it runs as another user; this very process runs).
 */
export function builderGone(row: { builder_host: string | null; builder_pid: number | null }, self: BuilderProcess) {
  if (row.builder_host === null || row.builder_pid === null || row.builder_host !== self.host) return true
  try {
    process.kill(row.builder_pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

export interface BuildRecorder {
  /**
   * Closes the rows a builder that is gone left open (it was killed): the admin would show 'Rebuilding…' for ever.
   * Rows of a builder still running (another builder on the same database) are left to it.
   */
  closeInterrupted(): Promise<void>
  /** Inserts a queued row; its id, or null when the write failed. */
  queued(reasons: readonly string[]): Promise<number | null>
  /** Rewrites a still-queued row's reason after more requests were coalesced into it. */
  requeued(id: number, reasons: readonly string[]): Promise<void>
  building(id: number, reasons: readonly string[]): Promise<void>
  finished(id: number, status: 'succeeded' | 'failed', logTail: string): Promise<void>
}

/** How many times a write the API never answered is tried. */
const WRITE_ATTEMPTS = 3

/**
 * The recorder over a service-role client; `self` is this builder (this process by default); `retryDelayMs` is the
 * wait before the second try (twice that before the third).
 */
export function createBuildRecorder(
  client: SupabaseClient,
  log: (line: string) => void,
  self: BuilderProcess = { host: os.hostname(), pid: process.pid },
  retryDelayMs = 500,
): BuildRecorder {
  const write = async (what: string, run: () => PromiseLike<{ error: { message: string; code?: string } | null }>) => {
    for (let attempt = 1; ; attempt += 1) {
      const { error } = await run()
      if (!error) return
      // PostgREST answered with a PostgreSQL or API code: trying again would be refused the same way
      if (error.code || attempt === WRITE_ATTEMPTS) {
        log(`Could not record the site build (${what}): ${error.message}`)
        return
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt))
    }
  }
  const now = () => new Date().toISOString()
  // when each build started: its finished row carries it again, so a build whose 'building' write was lost still
  // satisfies "started before it finished" instead of staying queued
  const startedAt = new Map<number, string>()
  return {
    async closeInterrupted() {
      const { data, error } = await client
        .from('site_builds')
        .select('id, status, builder_host, builder_pid')
        .in('status', ['queued', 'building'])
      if (error) {
        log(`Could not record the site build (interrupted): ${error.message}`)
        return
      }
      const rows = data as { id: number; status: string; builder_host: string | null; builder_pid: number | null }[]
      const gone = rows.filter((row) => builderGone(row, self))
      const at = now()
      const interrupted = 'The builder stopped before this build finished.'
      const building = gone.filter((row) => row.status === 'building').map((row) => row.id)
      const queued = gone.filter((row) => row.status === 'queued').map((row) => row.id)
      if (building.length > 0)
        await write('interrupted', () =>
          client
            .from('site_builds')
            .update({ status: 'failed', finished_at: at, log_tail: interrupted })
            .in('id', building)
            .eq('status', 'building'),
        )
      if (queued.length > 0)
        await write('interrupted', () =>
          client
            .from('site_builds')
            .update({ status: 'failed', started_at: at, finished_at: at, log_tail: `${interrupted} It never started.` })
            .in('id', queued)
            .eq('status', 'queued'),
        )
    },
    async queued(reasons) {
      const { data, error } = await client
        .from('site_builds')
        .insert({
          status: 'queued',
          trigger_reason: joinReasons(reasons),
          builder_host: self.host,
          builder_pid: self.pid,
        })
        .select('id')
        .single()
      if (error) {
        log(`Could not record the site build (queued): ${error.message}`)
        return null
      }
      return (data as { id: number }).id
    },
    requeued: (id, reasons) =>
      write('queued', () =>
        client
          .from('site_builds')
          .update({ trigger_reason: joinReasons(reasons) })
          .eq('id', id)
          .eq('status', 'queued'),
      ),
    building: (id, reasons) => {
      const at = now()
      startedAt.set(id, at)
      return write('building', () =>
        client
          .from('site_builds')
          .update({ status: 'building', started_at: at, trigger_reason: joinReasons(reasons) })
          .eq('id', id),
      )
    },
    finished: (id, status, tail) => {
      const finishedAt = now()
      const started = startedAt.get(id) ?? finishedAt
      startedAt.delete(id)
      return write(status, () =>
        client
          .from('site_builds')
          .update({ status, started_at: started, finished_at: finishedAt, log_tail: tail })
          .eq('id', id),
      )
    },
  }
}
