/**
 * Astro client directive `client:interaction`: the island's JavaScript (React and the component) loads when the
 * visitor first points at, touches or focuses the island, not with the page, so a prerendered page ships no
 * framework code until someone uses its controls (budget: agent pages ≤ 20 KB gzip until the visitor interacts).
 * The prerendered HTML is live meanwhile (links work); a click that lands before hydration finishes is replayed on
 * the same element once React owns it. Registered in astro.config.mjs (Astro's addClientDirective).
 */
import type { ClientDirective } from 'astro'

const TRIGGERS = ['pointerover', 'pointerdown', 'focusin', 'touchstart'] as const

const interaction: ClientDirective = (load, _options, element) => {
  let pending: HTMLElement | null = null
  // a click on a button before React is there would do nothing: hold it and replay it after hydration
  const holdClick = (event: Event) => {
    const target = (event.target as Element | null)?.closest('button')
    if (!target) return
    event.preventDefault()
    event.stopPropagation()
    pending = target
  }
  const start = async () => {
    for (const type of TRIGGERS) element.removeEventListener(type, start)
    element.addEventListener('click', holdClick, true)
    try {
      const hydrate = await load()
      await hydrate()
    } finally {
      element.removeEventListener('click', holdClick, true)
    }
    const replay = pending as HTMLElement | null
    if (replay?.isConnected) replay.click()
  }
  for (const type of TRIGGERS) element.addEventListener(type, start, { once: true, passive: true })
}

export default interaction

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when the visitor first points at, touches or focuses the island (this file). */
    'client:interaction'?: boolean
  }
}
