/**
 * The header's small script (no framework): the mobile menu (Menu button, closes on Escape, an outside tap or a
 * link) and the account item, which shows the signed-in visitor's name and a Sign Out button instead of Login.
 *
 * The session is read from supabase-js's localStorage entry (`sb-<project>-auth-token`, written by the /auth page),
 * so pages do not load supabase-js just to draw the header; it is loaded on demand to take the session from an auth
 * e-mail link's URL, and for Sign Out, which calls
 * `auth.signOut()`, which ends the session on the server and clears the entry (sign-out clears the
 * session).
 */

import { buttonReady } from '~/lib/early-click'

const SESSION_KEY = /^sb-.+-auth-token$/

/** What the header shows about a signed-in visitor. */
export interface HeaderUser {
  /** user_metadata.full_name (set by Sign Up), else the email address. */
  name: string
}

/**
 * The signed-in visitor from a stored supabase-js session value (JSON), or null when there is none or it cannot
 * be read. A session whose refresh token is gone is treated as signed out.
 */
export function headerUserFromSession(raw: string | null): HeaderUser | null {
  if (!raw) return null
  try {
    const session = JSON.parse(raw) as {
      refresh_token?: unknown
      user?: { email?: unknown; user_metadata?: { full_name?: unknown } }
    }
    if (typeof session.refresh_token !== 'string' || !session.user) return null
    const fullName = session.user.user_metadata?.full_name
    const name = typeof fullName === 'string' && fullName.trim() !== '' ? fullName.trim() : session.user.email
    return typeof name === 'string' && name !== '' ? { name } : null
  } catch {
    return null
  }
}

function storedUser(): HeaderUser | null {
  try {
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index)
      if (key && SESSION_KEY.test(key)) return headerUserFromSession(localStorage.getItem(key))
    }
  } catch {
    // storage blocked (privacy mode): show the signed-out header
  }
  return null
}

/**
 * Wires the menu toggle and the account item inside `header` (BaseLayout's `[data-site-header]`), then marks it
 * `data-enhanced="true"`. BaseLayout loads this after the first paint (src/lib/site-boot.ts), so a tap on Menu
 * before that does nothing.
 */
export function enhanceHeader(header: HTMLElement): void {
  const toggle = header.querySelector<HTMLButtonElement>('#nav-toggle')!
  const nav = header.querySelector<HTMLElement>('#site-nav')!
  const iconOpen = toggle.querySelector<HTMLElement>('[data-icon-open]')!
  const iconClose = toggle.querySelector<HTMLElement>('[data-icon-close]')!

  const setOpen = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open))
    nav.classList.toggle('hidden', !open)
    iconOpen.hidden = open
    iconClose.hidden = !open
  }
  const isOpen = () => toggle.getAttribute('aria-expanded') === 'true'
  toggle.addEventListener('click', () => setOpen(!isOpen()))
  buttonReady(toggle) // a tap on Menu before this ran opens it now
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) {
      setOpen(false)
      toggle.focus()
    }
  })
  document.addEventListener('pointerdown', (event) => {
    if (isOpen() && !header.contains(event.target as Node)) setOpen(false)
  })
  nav.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('a')) setOpen(false)
  })

  const signedOut = header.querySelector<HTMLElement>('[data-auth="signed-out"]')!
  const signedIn = header.querySelector<HTMLElement>('[data-auth="signed-in"]')!
  const nameSlot = signedIn.querySelector<HTMLElement>('[data-user-name]')!
  const signOut = signedIn.querySelector<HTMLButtonElement>('[data-sign-out]')!

  const render = () => {
    const user = storedUser()
    nameSlot.textContent = user?.name ?? ''
    signedIn.hidden = user === null
    signedOut.hidden = user !== null
  }
  render()
  // another tab signed in or out
  window.addEventListener('storage', render)

  // Arriving from an auth e-mail link (sign-up confirmation): the tokens are in the URL. supabase-js stores the
  // session from them when it starts (detectSessionInUrl), so load it only then and draw the header again.
  if (/[#&](access_token|error_description)=|[?&]code=/.test(window.location.hash + window.location.search)) {
    void import('./supabase')
      .then(async ({ supabase }) => {
        const { error } = await supabase.auth.getSession()
        if (error) console.error('Could not finish signing in from the e-mail link', error)
      })
      .finally(render)
  }

  signOut.addEventListener('click', async () => {
    signOut.disabled = true
    try {
      const { supabase } = await import('./supabase')
      const { error } = await supabase.auth.signOut()
      if (error) {
        // the server could not end it (offline, say): still forget it in this browser
        console.error('Sign-out failed on the server; clearing the local session', error)
        await supabase.auth.signOut({ scope: 'local' })
      }
    } catch (unexpected) {
      console.error('Sign-out failed', unexpected)
    } finally {
      signOut.disabled = false
      render()
    }
  })
  // for whoever needs to know the header works now (the browser tests, before they tap Menu)
  header.dataset.enhanced = 'true'
}
