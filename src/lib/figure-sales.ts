/**
 * The /figure-sales page's rules: which agent and figure the URL names, and the live read of "the sales behind this
 * figure" (public.agent_figure_sales, anyone may call it for one agent and one figure) with the agent's name.
 * Plain code and plain fetch, no zod or PostgREST client: the page stays small; the function's answer is typed by
 * its contract (AgentFigureSales in @shared/figures-contract.ts) and checked by its own tests.
 */
import type { AgentFigureSales } from '@shared/figures-contract.ts'
import { FIGURE_METRICS, type FigureMetric } from '@shared/methodology.ts'
import { isUuid } from '@shared/urls.ts'
import { anonHeaders, browserConfig } from './browser-config'

export type FigureSalesParams = { ok: true; agentId: string; metric: FigureMetric } | { ok: false; message: string }

/**
 * Reads `?agent=<uuid>&figure=<metric>`. @returns the message to show when the agent id is not a uuid or the figure
 * is not one of an agent's figures.
 */
export function parseFigureSalesParams(search: string): FigureSalesParams {
  const params = new URLSearchParams(search)
  const agentId = (params.get('agent') ?? '').trim().toLowerCase()
  const figure = (params.get('figure') ?? '').trim()
  if (!isUuid(agentId)) return { ok: false, message: 'The link names no agent.' }
  const metric = FIGURE_METRICS.find((known) => known === figure)
  if (!metric) return { ok: false, message: `"${figure}" is not one of an agent's figures.` }
  return { ok: true, agentId, metric }
}

export interface FigureSalesPage {
  agent: { id: string; name: string; brokerage: string | null }
  sales: AgentFigureSales
}

/** PostgREST's error body (code is the SQLSTATE, e.g. P0002 when no agent has the id). */
interface PostgrestError {
  code?: string
  message?: string
}

/** A PostgREST request with the anon key. @returns the parsed JSON body. @throws Error with the API's message. */
async function rest<T>(
  path: string,
  init: RequestInit = {},
): Promise<{ ok: true; body: T } | { ok: false; error: PostgrestError }> {
  const response = await fetch(`${browserConfig().apiUrl}/rest/v1/${path}`, {
    ...init,
    headers: { ...anonHeaders(), 'Content-Type': 'application/json', ...init.headers },
  })
  const body = (await response.json().catch(() => null)) as unknown
  if (response.ok) return { ok: true, body: body as T }
  return { ok: false, error: (body ?? {}) as PostgrestError }
}

/**
 * Loads the figure and its sales (at most `maxRows`, newest first) and the agent's name.
 * @returns null when no agent has this id. @throws Error with the API's message when a read fails.
 */
export async function fetchFigureSales(
  agentId: string,
  metric: FigureMetric,
  maxRows = 2000,
): Promise<FigureSalesPage | null> {
  const [agent, sales] = await Promise.all([
    rest<FigureSalesPage['agent'][]>(`agents?select=id,name,brokerage&id=eq.${encodeURIComponent(agentId)}`),
    rest<AgentFigureSales>('rpc/agent_figure_sales', {
      method: 'POST',
      body: JSON.stringify({ agent_id: agentId, metric, max_rows: maxRows }),
    }),
  ])
  if (!agent.ok) throw new Error(`Could not load the agent: ${agent.error.message ?? 'unknown error'}`)
  // P0002: no agent has this id
  if (agent.body.length === 0 || (!sales.ok && sales.error.code === 'P0002')) return null
  if (!sales.ok) throw new Error(`Could not load the sales: ${sales.error.message ?? 'unknown error'}`)
  return { agent: agent.body[0]!, sales: sales.body }
}
