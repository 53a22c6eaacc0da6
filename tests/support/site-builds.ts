/**
 * Helpers of the tests that drive the local build hook (supabase/local/build-hook) against the shared test database:
 * the recorded build of a reason, one build asked for and waited on, and the page versions a build must not read.
 */
import { expect } from 'vitest'
import type { BuildHook } from '../../supabase/local/build-hook/index.ts'
import { sql } from './env.ts'

/** The newest finished or failed build asked for with `reason`: its status and log tail (public.site_builds). */
export async function buildLog(reason: string): Promise<{ status: string; log_tail: string }> {
  const [row] = await sql<{ status: string; log_tail: string }>(
    `select status, log_tail from public.site_builds where trigger_reason = $1 order by id desc limit 1`,
    [reason],
  )
  return row!
}

/** Asks `builder` for a build with `reason`, waits for it, expects it to succeed and be served; its log tail. */
export async function rebuild(builder: BuildHook, reason: string): Promise<string> {
  const before = builder.currentDir()
  builder.request(reason)
  await builder.idle()
  const row = await buildLog(reason)
  expect(row.status, row.log_tail).toBe('succeeded')
  expect(builder.currentDir()).not.toBe(before)
  return row.log_tail
}

/**
 * The page versions of `agentIds` and of `zip` as one string: equal before and after a build when nothing changed them
 * meanwhile (another test file's refresh may give every page a new version).
 */
export async function pageVersionsOf(agentIds: string[], zip: string): Promise<string> {
  return JSON.stringify(
    await sql(
      `select (select array_agg(v.version order by v.agent_id) from public.agent_page_versions v where v.agent_id = any($1)) as agents,
              (select z.version from public.zip_page_versions z where z.zip_code = $2) as zip`,
      [agentIds, zip],
    ),
  )
}
