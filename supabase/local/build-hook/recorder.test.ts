import { createClient } from '@supabase/supabase-js'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createBuildRecorder, joinReasons, logTail } from './recorder.ts'

describe('joinReasons', () => {
  it('joins the reasons of one build with "; "', () => {
    expect(joinReasons(['post published: a', 'rebuild requested by x@example.com'])).toBe(
      'post published: a; rebuild requested by x@example.com',
    )
  })

  it('keeps the newest reasons whole when many were coalesced, so the latest request stays findable by its reason', () => {
    const reasons = Array.from({ length: 120 }, (_, i) => `post published: article-number-${i}`)
    reasons.push('rebuild requested by admin@example.com')
    const joined = joinReasons(reasons)
    expect(joined.length).toBeLessThanOrEqual(2000)
    expect(joined.endsWith('post published: article-number-119; rebuild requested by admin@example.com')).toBe(true)
    expect(joined).toMatch(/^\(\d+ earlier requests\) post published: article-number-\d+; /)
    const dropped = Number(/^\((\d+) earlier/.exec(joined)![1])
    expect(joined.split('; ')).toHaveLength(reasons.length - dropped)
  })
})

describe('logTail', () => {
  it('keeps the last 60 lines without colour codes', () => {
    const tail = logTail()
    for (let i = 1; i <= 100; i += 1) tail.push(`\u001b[32mline ${i}\u001b[39m\n`)
    tail.push('partial')
    const lines = tail.text().split('\n')
    expect(lines).toHaveLength(60)
    expect(lines[0]).toBe('line 42')
    expect(lines.at(-1)).toBe('partial')
  })
})

describe('createBuildRecorder', () => {
  /** A REST API on a local port whose first `drops` PATCH requests are cut off before an answer (fetch fails). */
  async function api(drops: number) {
    const patches: Record<string, unknown>[] = []
    let seen = 0
    const server = http.createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        if (request.method !== 'PATCH') return response.writeHead(404).end()
        seen += 1
        if (seen <= drops) return request.socket.destroy()
        patches.push(JSON.parse(body) as Record<string, unknown>)
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const client = createClient(`http://127.0.0.1:${port}`, 'service-role-key', { auth: { persistSession: false } })
    return { client, patches, close: () => new Promise((resolve) => server.close(resolve)) }
  }

  it('writes a status the API did not answer again, and a finished build carries its start', async () => {
    const { client, patches, close } = await api(1)
    const lines: string[] = []
    try {
      const recorder = createBuildRecorder(client, (line) => lines.push(line), { host: 'test', pid: 1 }, 1)
      await recorder.building(7, ['data change'])
      await recorder.finished(7, 'succeeded', 'done')
      expect(lines).toEqual([])
      expect(patches).toHaveLength(2)
      expect(patches[0]).toMatchObject({ status: 'building', trigger_reason: 'data change' })
      expect(patches[1]).toMatchObject({ status: 'succeeded', log_tail: 'done', started_at: patches[0]!.started_at })
    } finally {
      await close()
    }
  })

  it('gives up after three unanswered writes and says so', async () => {
    const { client, patches, close } = await api(3)
    const lines: string[] = []
    try {
      const recorder = createBuildRecorder(client, (line) => lines.push(line), { host: 'test', pid: 1 }, 1)
      await recorder.building(7, ['data change'])
      expect(patches).toHaveLength(0)
      expect(lines).toEqual([expect.stringMatching(/^Could not record the site build \(building\): .*fetch failed/)])
    } finally {
      await close()
    }
  })
})
