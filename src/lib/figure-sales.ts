/**
 * The /figure-sales page's rules: which agent and figure the URL names, and the live read of "the sales behind this
 * figure" (public.agent_figure_sales, anyone may call it for one agent and one figure) with the agent's name.
 * Plain code, no zod: the page stays small; the function's answer is typed by its contract
 * (AgentFigureSales in @shared/figures-contract.ts) and checked by its own tests.
 */
import type { AgentFigureSales } from '@shared/figures-contract.ts'
import { FIGURE_METRICS, type FigureMetric } from '@shared/methodology.ts'
import { isUuid } from '@shared/urls.ts'
import { restClient } from './agent-profile'

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

/** PostgREST's code for "no agent has this id" (the function raises P0002). */
const NOT_FOUND = 'P0002'

/**
 * Loads the figure and its sales (at most `maxRows`, newest first) and the agent's name.
 * @returns null when no agent has this id. @throws the PostgREST error of a failed read.
 */
export async function fetchFigureSales(
  agentId: string,
  metric: FigureMetric,
  maxRows = 2000,
): Promise<FigureSalesPage | null> {
  const rest = restClient()
  const [agent, sales] = await Promise.all([
    rest.from('agents').select('id, name, brokerage').eq('id', agentId).maybeSingle(),
    rest.rpc('agent_figure_sales', { agent_id: agentId, metric, max_rows: maxRows }),
  ])
  if (agent.error) throw agent.error
  if (!agent.data || sales.error?.code === NOT_FOUND) return null
  if (sales.error) throw sales.error
  return { agent: agent.data, sales: sales.data as unknown as AgentFigureSales }
}
