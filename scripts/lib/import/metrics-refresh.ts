/**
 * Runs `public.refresh_agent_metrics(window_months)` on a client (inside the caller's transaction) and describes what
 * it did. The refresh is incremental when the window, methodology version and shrinkage weight are the last
 * refresh's, full otherwise (scripts/lib/import/README.md).
 */
import type pg from 'pg'

/** What one metrics refresh did. */
export interface MetricsRefresh {
  /** The window's first and last close dates (YYYY-MM-DD); null when no closed sale has a price. */
  windowStart: string | null
  windowEnd: string | null
  /** public.agents rows whose figure columns changed. */
  agentsUpdated: number
  /** 'incremental' (the agents the changes since the last refresh reach) or 'full' (every agent). */
  kind: string
  /** Agents whose figures were recomputed. */
  agentsRecomputed: number
}

/** Refreshes the agents' figures over `windowMonths` months (default 24). Errors are the database's. */
export async function refreshAgentMetrics(client: pg.ClientBase, windowMonths = 24): Promise<MetricsRefresh> {
  const { rows } = await client.query<{
    metrics_window_start: string | null
    metrics_window_end: string | null
    agents_updated: number
    refresh_kind: string
    agents_recomputed: number
  }>(
    `select metrics_window_start::text, metrics_window_end::text, agents_updated, refresh_kind, agents_recomputed
       from public.refresh_agent_metrics($1)`,
    [windowMonths],
  )
  const row = rows[0]!
  return {
    windowStart: row.metrics_window_start,
    windowEnd: row.metrics_window_end,
    agentsUpdated: row.agents_updated,
    kind: row.refresh_kind,
    agentsRecomputed: row.agents_recomputed,
  }
}

/** The line the importers print: "Agent metrics refreshed for <start> to <end>: N agents changed (kind refresh, ...)". */
export function formatMetricsRefresh(metrics: MetricsRefresh): string {
  return `Agent metrics refreshed for ${metrics.windowStart ?? '-'} to ${metrics.windowEnd ?? '-'}: ${metrics.agentsUpdated} agents changed (${metrics.kind} refresh, ${metrics.agentsRecomputed} agents recomputed)`
}
