/**
 * The build's render plan: which keyed paths of a route the current static build will render, in render order. The
 * build-report integration (src/integrations/build-report.ts) sets it once the paths are listed, in the same Node
 * process that renders the pages; page loaders read it to fetch the data of many upcoming pages in one request
 * (src/lib/agent-pages.ts). Outside a build (an on-demand render) there is no plan.
 */

const KEY = Symbol.for('agent-insight.render-plan')

type Holder = { [KEY]?: ReadonlyMap<string, readonly string[]> }

/** Sets the plan: route pattern (e.g. '/agent/[id]') -> pathnames to render, in order. */
export function setRenderPlan(plan: ReadonlyMap<string, readonly string[]>): void {
  ;(globalThis as Holder)[KEY] = plan
}

/** The pathnames of `route` this build will render, in order; undefined outside a build or without a plan. */
export function renderPlan(route: string): readonly string[] | undefined {
  return (globalThis as Holder)[KEY]?.get(route)
}
