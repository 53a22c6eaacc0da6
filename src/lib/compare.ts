/**
 * The /compare page's rules: which agents the URL names and the plain-language "who leads on what" line.
 */
import type { AgentProfile } from './agent-profile'
import { figureN, figureNumber } from '@shared/figure-display.ts'
import { formatCount, formatDays, formatPercent } from './format'
import { MIN_SAMPLE_FOR_RATES, type FigureMetric } from '@shared/methodology.ts'
import { COMPARE_MAX_AGENTS, isUuid } from '@shared/urls.ts'

export type CompareIds = { ok: true; ids: string[] } | { ok: false; message: string }

/**
 * The agent ids of `?agents=id1,id2` (uuids, lower-cased, duplicates dropped, order kept).
 * @returns an error message when fewer than 2 or more than COMPARE_MAX_AGENTS ids are given or one is not a uuid.
 */
export function parseCompareIds(search: string): CompareIds {
  const raw = new URLSearchParams(search).get('agents') ?? ''
  const parts = [
    ...new Set(
      raw
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]
  const bad = parts.find((part) => !isUuid(part))
  if (bad !== undefined) return { ok: false, message: `"${bad}" is not an agent id.` }
  if (parts.length < 2) return { ok: false, message: 'Choose at least 2 agents to compare.' }
  if (parts.length > COMPARE_MAX_AGENTS)
    return { ok: false, message: `Compare at most ${COMPARE_MAX_AGENTS} agents at a time.` }
  return { ok: true, ids: parts }
}

/** The agent with the best value of `pick` (higher or lower is better); null when nobody has a value or all tie. */
function leader(
  profiles: readonly AgentProfile[],
  pick: (profile: AgentProfile) => number | null,
  better: 'higher' | 'lower',
) {
  const scored = profiles
    .map((profile) => ({ profile, value: pick(profile) }))
    .filter((row): row is { profile: AgentProfile; value: number } => row.value !== null)
  if (scored.length < 2) return null
  scored.sort((a, b) => (better === 'higher' ? b.value - a.value : a.value - b.value))
  if (scored[0]!.value === scored[1]!.value) return null
  return scored[0]!
}

/** A rate of an agent's figures when it rests on at least MIN_SAMPLE_FOR_RATES values, else null (it cannot lead). */
function rate(profile: AgentProfile, metric: FigureMetric): number | null {
  const figures = profile.figures
  if (!figures || figureN(figures, metric) < MIN_SAMPLE_FOR_RATES) return null
  return figureNumber(figures, metric)
}

/**
 * One sentence per measure where someone leads: highest sale-to-list adjusted for sample size (the shrunk figure,
 * what sorting uses), lowest median days on market, most closed sales (both sides). Rates resting on fewer than
 * MIN_SAMPLE_FOR_RATES sales cannot lead. Ties and measures with fewer than two agents having a figure are left
 * out. Empty when nobody leads.
 */
export function compareLeaders(profiles: readonly AgentProfile[]): string[] {
  const lines: string[] = []
  const ratio = leader(profiles, (p) => rate(p, 'sale_to_list_shrunk'), 'higher')
  if (ratio)
    lines.push(
      `${ratio.profile.agent.name} gets the highest share of list price (${formatPercent(ratio.value)} sale-to-list, adjusted for sample size).`,
    )
  const dom = leader(profiles, (p) => rate(p, 'days_on_market_median'), 'lower')
  if (dom) lines.push(`${dom.profile.agent.name} sells fastest (median ${formatDays(dom.value)} on market).`)
  const sales = leader(profiles, (p) => p.figures?.total_sales ?? null, 'higher')
  if (sales)
    lines.push(`${sales.profile.agent.name} has the most closed sales, both sides (${formatCount(sales.value)}).`)
  return lines
}
