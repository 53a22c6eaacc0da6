import type { APIRoute } from 'astro'

import { prefetchAgentPages } from '../../lib/agent-pages'

/**
 * `GET /rerender/agents?ids=<id>,<id>,...` (at most 100 agent ids): reads those agents' profiles in one batch into
 * this isolate's read-ahead store, so the local builder's re-renders of their pages that follow read nothing more
 * (src/lib/agent-pages.ts, scripts/lib/site-patch.ts). 204 when read; 400 naming the problem for a bad list; 503 when
 * the read fails. Like the rest of /rerender/, never routed to a visitor.
 */
export const prerender = false

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const GET: APIRoute = async ({ url }) => {
  const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean)
  if (ids.length === 0 || ids.length > 100 || !ids.every((id) => UUID.test(id)))
    return new Response('ids must be 1 to 100 agent ids (UUIDs), comma-separated', { status: 400 })
  try {
    await prefetchAgentPages(ids)
    return new Response(null, { status: 204 })
  } catch (error) {
    return new Response(`Could not read the agents: ${(error as Error).message}`, { status: 503 })
  }
}
