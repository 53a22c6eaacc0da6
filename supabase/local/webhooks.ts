/**
 * Sends the HTTP requests that `net.http_post` / `net.http_get` (our pg_net stand-in, see
 * bootstrap-after-auth.sql) queued. Postgres delivers the NOTIFY only after the transaction commits, so a
 * rolled-back change never fires a webhook. Failed requests are retried (3 attempts, 2 s then 10 s apart); every
 * outcome is logged in `net._http_response`, as pg_net does.
 */
import pg from 'pg'

interface QueuedRequest {
  id: string
  method: string
  url: string
  headers: Record<string, string>
  params: Record<string, string>
  body: unknown
  timeout_milliseconds: number
  attempts: number
}

export interface WebhookDispatcher {
  /** Resolves when the queue has no request due now (tests use it to wait for delivery). */
  drain(): Promise<void>
  stop(): Promise<void>
}

const MAX_ATTEMPTS = 3
const RETRY_DELAYS_SECONDS = [2, 10]

/** Starts listening on channel `net_http_request` and sweeping the queue every few seconds. */
export async function startWebhookDispatcher(
  databaseUrl: string,
  log: (line: string) => void = () => {},
): Promise<WebhookDispatcher> {
  const listener = new pg.Client({ connectionString: databaseUrl })
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  // Postgres may go away first on Ctrl-C (it shares the terminal's process group); that is not a crash.
  const onError = (what: string) => (error: Error & { code?: string }) => {
    if (error.code !== '57P01') log(`${what}: ${error.message}`) // 57P01: the server is shutting down
  }
  listener.on('error', onError('webhook listener'))
  pool.on('error', onError('webhook pool'))
  await listener.connect()
  await listener.query('listen net_http_request')
  let running: Promise<void> | null = null
  let again = false
  let stopped = false

  const sweep = async (): Promise<void> => {
    for (;;) {
      const client = await pool.connect()
      let request: QueuedRequest | undefined
      try {
        await client.query('begin')
        const { rows } = await client.query<QueuedRequest>(
          `select * from net.http_request_queue where next_attempt_at <= now()
           order by id limit 1 for update skip locked`,
        )
        request = rows[0]
        if (!request) {
          await client.query('commit')
          return
        }
        const outcome = await send(request)
        const attempts = request.attempts + 1
        if (outcome.ok || attempts >= MAX_ATTEMPTS) {
          await client.query('delete from net.http_request_queue where id = $1', [request.id])
          await client.query(
            `insert into net._http_response (id, url, status_code, content_type, content, timed_out, error_msg, attempts)
             values ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [
              request.id,
              request.url,
              outcome.status,
              outcome.contentType,
              outcome.content,
              outcome.timedOut,
              outcome.error,
              attempts,
            ],
          )
          log(`webhook ${request.method} ${request.url} -> ${outcome.status ?? outcome.error} (attempt ${attempts})`)
        } else {
          const delay = RETRY_DELAYS_SECONDS[attempts - 1] ?? 10
          await client.query(
            `update net.http_request_queue set attempts = $2, next_attempt_at = now() + make_interval(secs => $3) where id = $1`,
            [request.id, attempts, delay],
          )
          log(
            `webhook ${request.method} ${request.url} failed (${outcome.status ?? outcome.error}); retrying in ${delay}s`,
          )
        }
        await client.query('commit')
      } catch (error) {
        await client.query('rollback').catch(() => {})
        log(`webhook dispatcher error: ${(error as Error).message}`)
        return
      } finally {
        client.release()
      }
    }
  }

  const kick = () => {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    // a lost database (pool.connect() rejects) is reported by the stack; it must not crash the process
    running = sweep()
      .catch((error: Error & { code?: string }) => {
        if (error.code !== '57P01') log(`webhook dispatcher error: ${error.message}`)
      })
      .finally(() => {
        running = null
        if (again) {
          again = false
          kick()
        }
      })
  }

  listener.on('notification', kick)
  const timer = setInterval(kick, 2000)
  kick()

  return {
    async drain() {
      while (running) await running
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      while (running) await running
      await listener.end()
      await pool.end()
    },
  }
}

async function send(request: QueuedRequest) {
  const url = new URL(request.url)
  for (const [key, value] of Object.entries(request.params ?? {})) url.searchParams.set(key, String(value))
  try {
    const response = await fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' ? undefined : JSON.stringify(request.body ?? {}),
      signal: AbortSignal.timeout(request.timeout_milliseconds),
    })
    const content = await response.text()
    return {
      ok: response.ok,
      status: response.status,
      contentType: response.headers.get('content-type'),
      content: content.slice(0, 10_000),
      timedOut: false,
      error: null as string | null,
    }
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError'
    return {
      ok: false,
      status: null as number | null,
      contentType: null,
      content: null,
      timedOut,
      error: timedOut ? `Timeout of ${request.timeout_milliseconds} ms reached` : (error as Error).message,
    }
  }
}
