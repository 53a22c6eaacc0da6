/**
 * Minimal client-side navigation for the admin SPA (no router library yet). Paths are absolute URLs
 * under /admin; anything outside the SPA should use a full page load (`window.location.assign`).
 */
const NAVIGATE_EVENT = 'admin:navigate'

/** The question asked before leaving a screen with unsaved work, or null when leaving is free. */
let leaveGuard: string | null = null
let currentUrl = typeof window === 'undefined' ? '' : window.location.href

/**
 * Asks `message` (window.confirm) before any in-app navigation or browser Back/Forward leaves the current screen;
 * pass null to lift it. Screens with unsaved work set it while dirty (the blog editor does); reloads and tab
 * closes are covered separately by `beforeunload`.
 */
export function setLeaveGuard(message: string | null): void {
  leaveGuard = message
}

function mayLeave(): boolean {
  return leaveGuard === null || window.confirm(leaveGuard)
}

if (typeof window !== 'undefined') {
  // Registered before any subscriber: a declined Back/Forward puts the left URL back, so the screen stays.
  window.addEventListener('popstate', () => {
    if (window.location.href === currentUrl) return
    if (!mayLeave()) {
      window.history.pushState(null, '', currentUrl)
      return
    }
    leaveGuard = null
    currentUrl = window.location.href
  })
}

/**
 * Pushes (or replaces) a history entry and tells subscribers the path changed. Asks first when a leave guard is
 * set, unless `force` (used after the work was saved or explicitly discarded); a declined question does nothing.
 */
export function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): void {
  if (!options.force && !mayLeave()) return
  leaveGuard = null
  if (options.replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  currentUrl = window.location.href
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
