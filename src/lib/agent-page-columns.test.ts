/**
 * The agents row keeps a listing-side ranking for search and the API (local_ranking, market_share,
 * total_agents_in_area) that no page of the site prints: the pages' rank, share and "of N" come from agent_figures.
 * Page versions rely on it: a metrics refresh rewrites those three for every agent of a ZIP with a new sale, and the
 * page-version trigger on agents ignores them (private.track_agent_pages), so a page that starts printing one would
 * go stale. This guards the site's sources; printing one means taking it out of the trigger's list first.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const SOURCE_ROOT = path.resolve(import.meta.dirname, '..')
/** The three columns, as a property or a string: `market_share` alone, not `zip_market_share`. */
const UNPRINTED = /(?<![A-Za-z0-9_])(local_ranking|market_share|total_agents_in_area)(?![A-Za-z0-9_])/

/**
 * Every source file of the site under src/ (pages, components, islands, libraries), tests left out. The shared modules
 * (supabase/functions/_shared) are not scanned: they hold the generated row types and the search-agents answer, which
 * name the columns for the live search and the API.
 */
function siteSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return siteSources(file)
    return /\.(astro|tsx?|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : []
  })
}

describe("the agents row's listing-side ranking", () => {
  it('is read by no source of the site, so the page versions may ignore it', () => {
    const files = siteSources(SOURCE_ROOT)
    expect(files.length).toBeGreaterThan(50)
    const readers = files
      .filter((file) => UNPRINTED.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(SOURCE_ROOT, file))
    expect(readers).toEqual([])
  })

  it('the pattern finds the columns and not the figures of the same names', () => {
    expect(UNPRINTED.test('agent.market_share')).toBe(true)
    expect(UNPRINTED.test("select('local_ranking')")).toBe(true)
    expect(UNPRINTED.test('total_agents_in_area')).toBe(true)
    expect(UNPRINTED.test('figures.zip_market_share')).toBe(false)
  })
})
