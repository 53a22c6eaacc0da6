/**
 * Fixture agents with closed sales for the search, profile and report browser tests: written through the one test-data
 * factory (tests/support/factories.ts) into a ZIP code no other test uses, then `refresh_agent_metrics()` computes
 * their figures as the importer would. `remove()` deletes everything the fixture created.
 */
export {
  agentRow,
  createAgents,
  makeSales,
  unusedZip,
  type FixtureAgent,
  type FixtureAgentInput,
  type FixtureSale,
} from '../support/factories.ts'

/**
 * Waits until the site serves the prerendered page of agent `id` (HTTP 200 from the built file; the on-demand
 * rendering that answers before the rebuild carries a Cache-Tag header): creating fixture agents fires the
 * data-change webhook, and the local builder rebuilds and swaps the site in (tests/support/e2e-site.ts).
 * @throws when the page is not live within `timeoutMs`.
 */
export async function waitForAgentPage(baseURL: string, id: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await fetch(`${baseURL}/agent/${id}`)
    await response.arrayBuffer()
    if (response.status === 200 && !response.headers.has('cache-tag')) return
    if (Date.now() > deadline)
      throw new Error(`/agent/${id} was not built within ${timeoutMs} ms (last status ${response.status})`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}
