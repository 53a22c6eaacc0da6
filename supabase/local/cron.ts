/**
 * Runs the jobs of the pg_cron stand-in (cron.job, see bootstrap-after-auth.sql) the way pg_cron does on hosted
 * Supabase: each active job's command as the superuser, on its schedule. Schedules: pg_cron's interval form
 * ('N seconds', 1-59), '* * * * *' (every minute) and '*\/N * * * *' (every N minutes); others are skipped. A failing command is logged, never fatal, and
 * the job runs again at its next time. Jobs are re-read every tick, so a migration or `cron.schedule` call applies
 * without a restart.
 */
import pg from 'pg'

export interface CronRunner {
  /** Runs every active job once now, in jobid order (tests use it instead of waiting). */
  runAll(): Promise<void>
  stop(): Promise<void>
}

interface Job {
  jobid: string
  jobname: string
  schedule: string
  command: string
}

const TICK_MS = 1000

/**
 * Milliseconds between two runs of `schedule`, or null when the stand-in does not understand it.
 * '30 seconds' → 30,000; '* * * * *' → 60,000; '*\/10 * * * *' → 600,000.
 */
export function cronIntervalMs(schedule: string): number | null {
  const seconds = /^([1-9]|[1-5][0-9]) seconds$/.exec(schedule.trim())
  if (seconds) return Number(seconds[1]) * 1000
  if (schedule.trim() === '* * * * *') return 60_000
  const minutes = /^\*\/([1-9][0-9]?) \* \* \* \*$/.exec(schedule.trim())
  if (minutes) return Number(minutes[1]) * 60_000
  return null
}

/** Starts the runner; it polls cron.job every second and runs each job when its interval has passed. */
export async function startCron(databaseUrl: string, log: (line: string) => void = () => {}): Promise<CronRunner> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 })
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== '57P01') log(`cron pool error: ${error.message}`)
  })
  const lastRun = new Map<string, number>()
  let busy: Promise<void> | null = null
  let stopped = false

  const run = async (job: Job) => {
    lastRun.set(job.jobid, Date.now())
    try {
      await pool.query(job.command)
    } catch (error) {
      if (!stopped) log(`cron job ${job.jobname} failed: ${(error as Error).message}`)
    }
  }

  const readJobs = async (): Promise<Job[]> => {
    const { rows } = await pool.query<Job>(
      `select jobid::text, jobname, schedule, command from cron.job where active order by jobid`,
    )
    return rows
  }

  const tick = async () => {
    let jobs: Job[]
    try {
      jobs = await readJobs()
    } catch (error) {
      if (!stopped) log(`cron: could not read cron.job: ${(error as Error).message}`)
      return
    }
    const now = Date.now()
    for (const job of jobs) {
      const every = cronIntervalMs(job.schedule)
      if (every === null) continue
      const last = lastRun.get(job.jobid)
      // the first sighting waits one interval, as pg_cron does after cron.schedule
      if (last === undefined) lastRun.set(job.jobid, now)
      else if (now - last >= every) await run(job)
    }
  }

  const timer = setInterval(() => {
    if (busy || stopped) return
    busy = tick().finally(() => {
      busy = null
    })
  }, TICK_MS)
  timer.unref()

  return {
    async runAll() {
      while (busy) await busy
      for (const job of await readJobs()) await run(job)
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      while (busy) await busy
      await pool.end()
    },
  }
}
