/**
 * One autocannon run in a worker thread (bench/load.ts): the load generator must not share the event loop of the
 * stack it measures (the PostgREST/GoTrue stand-in and the /functions/v1 gateway run in the bench's own process).
 * workerData: {url, headers, bodies, connections, duration}; posts back autocannon's result and every response time
 * (ms), since autocannon's summary has p50/p90/p97.5/p99 but no p95.
 */
import autocannon from 'autocannon'
import { parentPort, workerData } from 'node:worker_threads'

/** What bench/load.ts sends the worker. */
export interface LoadJob {
  url: string
  headers: Record<string, string>
  /** Request bodies, sent round robin (every request a different query). */
  bodies: string[]
  connections: number
  /** Seconds. */
  duration: number
}

/** What the worker posts back. */
export interface LoadOutcome {
  requests: number
  duration: number
  errors: number
  timeouts: number
  non2xx: number
  times: number[]
}

const job = workerData as LoadJob
let next = 0
const times: number[] = []
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: job.url,
      method: 'POST',
      connections: job.connections,
      duration: job.duration,
      headers: { 'content-type': 'application/json', ...job.headers },
      requests: [
        { method: 'POST', setupRequest: (request) => ({ ...request, body: job.bodies[next++ % job.bodies.length] }) },
      ],
    },
    (error, done) => (error ? reject(error) : resolve(done)),
  )
  instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime))
})
const outcome: LoadOutcome = {
  requests: result.requests.total,
  duration: result.duration,
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
  times,
}
parentPort!.postMessage(outcome)
