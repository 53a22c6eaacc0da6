/**
 * The claim parts of the sales behind a figure, read with plain fetch (no supabase-js for visitors): the accepted
 * corrections of an agent's sales (public.agent_sale_corrections, anyone) and whether the signed-in visitor is the
 * agent who claimed the profile (public.is_agent_owner with their access token), which offers them a link to
 * correct a sale.
 */
import { anonHeaders, browserConfig } from './browser-config'
import { saleCorrectionsByAgent, type SaleCorrection } from './agent-profile'

async function rpc(name: string, body: unknown, accessToken?: string): Promise<unknown> {
  const response = await fetch(`${browserConfig().apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      ...anonHeaders(),
      ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}),
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${name} answered ${response.status}`)
  return response.json()
}

/** The accepted corrections of the agent's sales, newest decision first. @throws Error when the API refuses. */
export async function fetchSaleCorrections(agentId: string): Promise<SaleCorrection[]> {
  const rows = (await rpc('agent_sale_corrections', { agent_ids: [agentId] })) as unknown[]
  return saleCorrectionsByAgent(rows).get(agentId) ?? []
}

/** Whether the holder of `accessToken` holds the approved claim of the agent; false when the API refuses. */
export async function isAgentOwner(agentId: string, accessToken: string): Promise<boolean> {
  try {
    return (await rpc('is_agent_owner', { agent: agentId }, accessToken)) === true
  } catch {
    return false
  }
}

/** The owner's link to correct one sale: the corrections form, filled in with the sale. */
export function correctSaleUrl(sale: { property_id: string; source_record_id: string | null }): string {
  const params = new URLSearchParams({ kind: 'not_my_sale', property: sale.property_id })
  if (sale.source_record_id) params.set('sale', sale.source_record_id)
  return `/account/agent?${params.toString()}#corrections`
}
