/**
 * The client directives whose islands wait for the visitor (`visible`, `interaction`), registered the way Astro's
 * inline directive scripts register them: `self.Astro[name]`, then the `astro:<name>` event an island already
 * waiting listens for. Imported by ./island-hydration.ts before Astro's island runtime, which reads the global
 * `Astro` as soon as its element is defined.
 */
import visible from 'astro/runtime/client/visible.js'
import type { ClientDirective } from 'astro'

import interaction from './client-interaction'
import type { DeferredDirective } from './island-directive-names'

/** The directives registered here, by name: exactly ./island-directive-names.ts's (the type says so). */
export const DEFERRED_DIRECTIVES = { visible, interaction } satisfies Record<DeferredDirective, ClientDirective>

declare global {
  interface Window {
    Astro?: Record<string, ClientDirective>
  }
}

const registry = (self.Astro ??= {})
for (const [name, directive] of Object.entries(DEFERRED_DIRECTIVES)) {
  registry[name] = directive
  dispatchEvent(new Event(`astro:${name}`))
}
