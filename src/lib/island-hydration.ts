/**
 * Astro's island runtime (the `<astro-island>` element) and the client directives that wait for the visitor
 * (`visible`, `interaction`), loaded after the first paint instead of inline in the page.
 *
 * Astro writes its island runtime (about 4.4 KB, 1.7 KB compressed) and each directive's script inline before a page's
 * first island. On a page whose islands all wait for the visitor (to scroll to the island, to touch it) nothing needs
 * them before the page has painted, and their bytes kept the home and agent documents from fitting in the first round
 * trip of a slow connection (docs/performance.md). There the middleware (deferIslandRuntime in ./after-paint.ts) takes
 * them out of the page and leaves this module, loaded by IslandHydration.astro after the first paint; on a page with a
 * `load`, `only` or `idle` island everything stays as Astro wrote it (DEFERRED_DIRECTIVES there says why).
 *
 * The runtime is Astro's own (`astro/runtime/server/astro-island.js`, the source of the inline script) and the
 * directives are Astro's and ours (./client-interaction.ts), registered the way Astro's inline scripts register them:
 * `self.Astro[name]`, then the `astro:<name>` event an island already waiting listens for.
 *
 * A visitor may touch an `interaction` island before this has loaded: its directive was not listening yet. So an
 * island that holds the focus, is under the pointer, or holds a click EarlyClicks.astro kept (any button inside an
 * island, until the runtime is there) starts hydrating at once, and the kept click is replayed when the island has
 * hydrated (the runtime's `astro:hydrate` event).
 */
// the directives first: the runtime's islands read the global `Astro` as soon as the element is defined
import './island-directives'
import 'astro/runtime/server/astro-island.js'

/** Starts the `interaction` islands the visitor reached before their directive listened (see the module comment). */
function startTouchedIslands(): void {
  const held = window.siteEarlyClick
  for (const island of document.querySelectorAll<HTMLElement>('astro-island[client="interaction"]')) {
    const holdsClick = held !== undefined && island.contains(held)
    if (!holdsClick && !island.contains(document.activeElement) && !island.matches(':hover')) continue
    if (holdsClick) {
      window.siteEarlyClick = undefined
      island.addEventListener('astro:hydrate', () => (held as HTMLElement).click(), { once: true })
    }
    // the directive listens on the island itself (./client-interaction.ts)
    island.dispatchEvent(new Event('pointerdown'))
  }
}

// an island whose children are still arriving connects at DOMContentLoaded (the runtime waits for it), and only
// then is its directive listening
if (document.readyState === 'loading') addEventListener('DOMContentLoaded', startTouchedIslands, { once: true })
else startTouchedIslands()
