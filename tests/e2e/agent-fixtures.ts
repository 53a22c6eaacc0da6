/**
 * Fixture agents with closed sales for the search, profile and report browser tests: written through the one test-data
 * factory (tests/support/factories.ts) into a ZIP code no other test uses, then `refresh_agent_metrics()` computes
 * their figures as the importer would. `remove()` deletes everything the fixture created.
 */
import type { AgentFigures } from '@shared/figures-contract.ts'
import { sql } from './support.ts'

export {
  agentRow,
  createAgents,
  makeSales,
  unusedZip,
  type FixtureAgent,
  type FixtureAgentInput,
  type FixtureSale,
} from '../support/factories.ts'

/** The agent's figures row (public.agent_figures) as PostgREST would give it: numerics as numbers, dates as YYYY-MM-DD. */
export async function figuresRow(id: string): Promise<AgentFigures> {
  const [row] = await sql<Record<string, unknown>>(
    `select to_jsonb(f) as figures from public.agent_figures f where agent_id = $1`,
    [id],
  )
  if (!row) throw new Error(`agent ${id} has no figures`)
  return row.figures as AgentFigures
}

/**
 * Waits until the site serves the page of agent `id` with HTTP 200. By default the prerendered page (the built file;
 * the on-demand rendering that answers before the rebuild carries a Cache-Tag header): creating fixture agents fires
 * the data-change webhook, and the local builder rebuilds and swaps the site in (tests/support/e2e-site.ts). With
 * `prerendered: false` the page rendered on demand from the same component will do, for a test about what the page
 * does rather than what the build wrote, so it need not wait for a build.
 * @throws when the page is not served within `timeoutMs` (default 240 s).
 */
export async function waitForAgentPage(
  baseURL: string,
  id: string,
  { timeoutMs = 240_000, prerendered = true }: { timeoutMs?: number; prerendered?: boolean } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await fetch(`${baseURL}/agent/${id}`)
    await response.arrayBuffer()
    if (response.status === 200 && (!prerendered || !response.headers.has('cache-tag'))) return
    if (Date.now() > deadline)
      throw new Error(
        `/agent/${id} was not ${prerendered ? 'built' : 'served'} within ${timeoutMs} ms (last status ${response.status})`,
      )
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
