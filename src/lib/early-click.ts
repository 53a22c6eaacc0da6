/**
 * The other half of src/components/EarlyClicks.astro: a scripted button's module calls `buttonReady` once it has
 * wired the button. From then on the inline catcher lets the button's clicks through (`data-ready`), and a click the
 * visitor made on it before (held in `window.siteEarlyClick`) is replayed, once.
 */

declare global {
  interface Window {
    /** The newest click on a scripted button that came before its script (EarlyClicks.astro). */
    siteEarlyClick?: Element
  }
}

/** Marks `button` wired; replays the visitor's early click on it, if any. */
export function buttonReady(button: HTMLElement): void {
  button.setAttribute('data-ready', '')
  if (window.siteEarlyClick !== button) return
  window.siteEarlyClick = undefined
  button.click()
}
