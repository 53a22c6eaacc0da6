/**
 * The visitor's two agent lists, with no framework and no dependency so every page can carry them:
 *  - the compare tray: up to COMPARE_MAX_AGENTS agents (id and name, in the order picked) kept in localStorage, so it
 *    survives navigation and reloads; for a signed-in visitor ./account-sync.ts also keeps it in their account
 *    (public.compare_lists), so it follows them to another browser;
 *  - saved agents (the heart): known only for a signed-in visitor, loaded by ./account-sync.ts from
 *    public.saved_agents; a visitor who is not signed in is sent to sign in first.
 * Changes are announced to every listener in this tab (an event) and in other tabs (the storage event).
 */
import { COMPARE_MAX_AGENTS, isUuid } from '@shared/urls.ts'

/** One agent in the compare tray. */
export interface CompareEntry {
  id: string
  name: string
}

/** localStorage key of the compare tray: JSON `{entries: CompareEntry[], updatedAt: ms}`. */
export const COMPARE_STORAGE_KEY = 'ai_compare'
const COMPARE_EVENT = 'ai:compare'
const SAVED_EVENT = 'ai:saved'
/** supabase-js's session entry (`sb-<project>-auth-token`), written by the /auth page. */
const SESSION_KEY = /^sb-.+-auth-token$/

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>

function storage(): StorageLike | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null // storage blocked (privacy mode): the tray lives as long as the page
  }
}

let memory: CompareEntry[] = []

/** Entries of a stored value: valid ids only, no duplicates, at most COMPARE_MAX_AGENTS. */
export function parseCompareEntries(raw: string | null): CompareEntry[] {
  if (!raw) return []
  try {
    const value = JSON.parse(raw) as { entries?: unknown }
    if (!Array.isArray(value.entries)) return []
    const seen = new Set<string>()
    const entries: CompareEntry[] = []
    for (const item of value.entries as { id?: unknown; name?: unknown }[]) {
      const id = typeof item?.id === 'string' ? item.id.toLowerCase() : ''
      if (!isUuid(id) || seen.has(id)) continue
      seen.add(id)
      entries.push({ id, name: typeof item.name === 'string' && item.name.trim() ? item.name.trim() : 'Agent' })
    }
    return entries.slice(0, COMPARE_MAX_AGENTS)
  } catch {
    return []
  }
}

/** The compare tray, in the order picked. */
export function readCompare(store: StorageLike | null = storage()): CompareEntry[] {
  return store ? parseCompareEntries(store.getItem(COMPARE_STORAGE_KEY)) : memory
}

let snapshot: { raw: string | null | undefined; entries: CompareEntry[] } = { raw: undefined, entries: [] }

/** The compare tray as one unchanged array until it changes (React's useSyncExternalStore needs that). */
export function compareSnapshot(): CompareEntry[] {
  const store = storage()
  const raw = store ? store.getItem(COMPARE_STORAGE_KEY) : JSON.stringify(memory)
  if (raw !== snapshot.raw) snapshot = { raw, entries: readCompare(store) }
  return snapshot.entries
}

/**
 * Replaces the compare tray (cut to COMPARE_MAX_AGENTS) and tells every listener. `source: 'account'` marks a write
 * that came from the account, so the account sync does not send it back.
 */
export function writeCompare(
  entries: CompareEntry[],
  source: 'visitor' | 'account' = 'visitor',
  store: StorageLike | null = storage(),
): void {
  const kept = parseCompareEntries(JSON.stringify({ entries }))
  memory = kept
  try {
    store?.setItem(COMPARE_STORAGE_KEY, JSON.stringify({ entries: kept, updatedAt: Date.now() }))
  } catch {
    // quota or privacy mode: the in-memory copy still serves this page
  }
  globalThis.dispatchEvent?.(new CustomEvent(COMPARE_EVENT, { detail: { source } }))
}

/**
 * Adds the agent to the compare tray, or removes it when it is there.
 * @returns what happened; 'full' when COMPARE_MAX_AGENTS others are there already (nothing changes).
 */
export function toggleCompare(
  entry: CompareEntry,
  store: StorageLike | null = storage(),
): 'added' | 'removed' | 'full' {
  const current = readCompare(store)
  if (current.some((item) => item.id === entry.id)) {
    writeCompare(
      current.filter((item) => item.id !== entry.id),
      'visitor',
      store,
    )
    return 'removed'
  }
  if (current.length >= COMPARE_MAX_AGENTS) return 'full'
  writeCompare([...current, entry], 'visitor', store)
  return 'added'
}

/**
 * Calls `listener` whenever the compare tray changes, in this tab or another. Returns the unsubscribe function.
 * The listener gets the change's source ('visitor', 'account', or 'other-tab').
 */
export function subscribeCompare(listener: (source: 'visitor' | 'account' | 'other-tab') => void): () => void {
  const local = (event: Event) => listener((event as CustomEvent<{ source: 'visitor' | 'account' }>).detail.source)
  const other = (event: StorageEvent) => {
    if (event.key === COMPARE_STORAGE_KEY) listener('other-tab')
  }
  globalThis.addEventListener(COMPARE_EVENT, local)
  globalThis.addEventListener('storage', other)
  return () => {
    globalThis.removeEventListener(COMPARE_EVENT, local)
    globalThis.removeEventListener('storage', other)
  }
}

/** The signed-in visitor as stored by supabase-js (user id), or null. Reads localStorage only: no network. */
export function storedAccount(
  store: Pick<Storage, 'getItem' | 'key' | 'length'> | null = globalThis.localStorage ?? null,
) {
  try {
    if (!store) return null
    for (let index = 0; index < store.length; index += 1) {
      const key = store.key(index)
      if (!key || !SESSION_KEY.test(key)) continue
      const session = JSON.parse(store.getItem(key) ?? 'null') as {
        refresh_token?: unknown
        user?: { id?: unknown; email?: unknown; user_metadata?: { full_name?: unknown } }
      } | null
      if (typeof session?.refresh_token !== 'string' || typeof session.user?.id !== 'string') return null
      return {
        userId: session.user.id,
        email: typeof session.user.email === 'string' ? session.user.email : '',
        fullName: typeof session.user.user_metadata?.full_name === 'string' ? session.user.user_metadata.full_name : '',
      }
    }
  } catch {
    // storage blocked or an unreadable entry: treated as signed out
  }
  return null
}

/** Saved agents of the signed-in visitor: null until the account sync has loaded them. */
let saved: Set<string> | null = null

/** The saved agents' ids, or null while unknown (signed out, or not loaded yet). */
export function savedAgents(): ReadonlySet<string> | null {
  return saved
}

/** Sets the saved agents (the account sync, after loading or changing them) and tells every listener. */
export function setSavedAgents(ids: Iterable<string> | null): void {
  saved = ids === null ? null : new Set(ids)
  globalThis.dispatchEvent?.(new CustomEvent(SAVED_EVENT))
}

/** Calls `listener` whenever the saved agents change. Returns the unsubscribe function. */
export function subscribeSaved(listener: () => void): () => void {
  globalThis.addEventListener(SAVED_EVENT, listener)
  return () => globalThis.removeEventListener(SAVED_EVENT, listener)
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined

/**
 * Shows a short message at the top of the window for a few seconds, read out by screen readers (the live region
 * ./agent-lists-ui.ts puts in every page once it has painted).
 */
export function notify(text: string): void {
  const notice = document.querySelector<HTMLElement>('[data-agent-lists-notice]')
  if (!notice) return
  notice.textContent = text
  notice.hidden = false
  clearTimeout(noticeTimer)
  noticeTimer = setTimeout(() => {
    notice.hidden = true
    notice.textContent = ''
  }, 4000)
}

/** The sign-in page, returning to this page afterwards. */
export function signInUrl(): string {
  return `/auth?next=${encodeURIComponent(location.pathname + location.search)}`
}

/**
 * The heart: saves the agent to the account, or removes it. A visitor who is not signed in goes to sign in and comes
 * back to this page. Resolves when the account has the change.
 * @throws Error with a message for the visitor when the account cannot be reached.
 */
export async function toggleSavedAgent(id: string): Promise<void> {
  if (!storedAccount()) {
    location.assign(signInUrl())
    return
  }
  const { toggleSaved } = await import('./account-sync')
  await toggleSaved(id)
}
