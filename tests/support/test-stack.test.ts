/** The deadlock reports a test run prints from PostgreSQL's log before its stack is deleted. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { deadlockReports } from './test-stack.ts'

// as PostgreSQL 17 wrote it (log_line_prefix '%m [%p] '), with an unrelated error before and a statement after
const log = `2026-11-29 10:22:20.001 UTC [12077] ERROR:  duplicate key value violates unique constraint "agents_pkey"
2026-11-29 10:22:20.001 UTC [12077] DETAIL:  Key (id)=(1) already exists.
2026-11-29 10:22:25.058 UTC [12088] ERROR:  deadlock detected
2026-11-29 10:22:25.058 UTC [12088] DETAIL:  Process 12088 waits for ShareLock on transaction 3959; blocked by process 12089.
\tProcess 12089 waits for ExclusiveLock on advisory lock [5,0,0,2]; blocked by process 12088.
\tProcess 12088: delete from public.agents where id = $1
\tProcess 12089: select public.refresh_agent_metrics()
2026-11-29 10:22:25.058 UTC [12088] HINT:  See server log for query details.
2026-11-29 10:22:25.058 UTC [12088] CONTEXT:  while deleting tuple (0,1) in relation "agent_page_versions"
2026-11-29 10:22:25.058 UTC [12088] STATEMENT:  delete from public.agents where id = $1
2026-11-29 10:22:26.000 UTC [12090] LOG:  checkpoint starting: time
`

describe('deadlockReports', () => {
  it('prints each deadlock with the processes and statements of both sides, and nothing else', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadlock-report-'))
    try {
      const file = path.join(dir, 'postgres.log')
      fs.writeFileSync(file, log)
      expect(deadlockReports(file)).toEqual([
        'PostgreSQL reported a deadlock: 2026-11-29 10:22:25.058 UTC [12088] ERROR:  deadlock detected',
        '  2026-11-29 10:22:25.058 UTC [12088] DETAIL:  Process 12088 waits for ShareLock on transaction 3959; blocked by process 12089.',
        '  Process 12089 waits for ExclusiveLock on advisory lock [5,0,0,2]; blocked by process 12088.',
        '  Process 12088: delete from public.agents where id = $1',
        '  Process 12089: select public.refresh_agent_metrics()',
        '  2026-11-29 10:22:25.058 UTC [12088] HINT:  See server log for query details.',
        '  2026-11-29 10:22:25.058 UTC [12088] CONTEXT:  while deleting tuple (0,1) in relation "agent_page_versions"',
        '  2026-11-29 10:22:25.058 UTC [12088] STATEMENT:  delete from public.agents where id = $1',
      ])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('answers [] when the stack left no log', () => {
    expect(deadlockReports(path.join(os.tmpdir(), 'no-such-dir-for-deadlocks', 'postgres.log'))).toEqual([])
  })
})
