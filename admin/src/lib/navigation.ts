/**
 * Minimal client-side navigation for the admin SPA (no router library yet). Paths are absolute URLs
 * under /admin; anything outside the SPA should use a full page load (`window.location.assign`).
 */
const NAVIGATE_EVENT = 'admin:navigate'

/** Pushes (or replaces) a history entry and tells subscribers the path changed. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  window.dispatchEvent(new Event(NAVIGATE_EVENT))
}

/** Subscribes to path changes from `navigate` and the browser's back/forward buttons. */
export function subscribeToNavigation(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange)
  window.addEventListener(NAVIGATE_EVENT, onChange)
  return () => {
    window.removeEventListener('popstate', onChange)
    window.removeEventListener(NAVIGATE_EVENT, onChange)
  }
}

/** The current path without a trailing slash (`/admin/login/` and `/admin/login` are the same screen). */
export function getPathname(): string {
  return window.location.pathname.replace(/\/+$/, '') || '/'
}
