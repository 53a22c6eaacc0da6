/**
 * A signed-in visitor's agent lists in their account, loaded only when a session exists (it brings supabase-js):
 *  - the compare tray is merged once per page with public.compare_lists (this browser's picks first, then the
 *    account's, at most COMPARE_MAX_AGENTS) and every later change in this browser is written back, so the tray
 *    follows the visitor to another browser;
 *  - saved agents (public.saved_agents) are loaded for the hearts and changed by `toggleSaved`.
 * RLS lets each user read and write only their own rows; the names of agents known only from the account are read
 * from public.agents.
 */
import { COMPARE_MAX_AGENTS } from '@shared/urls.ts'
import {
  readCompare,
  savedAgents,
  setSavedAgents,
  subscribeCompare,
  writeCompare,
  type CompareEntry,
} from './agent-lists'
import { supabase } from './supabase'

let started: Promise<void> | null = null

/** The signed-in user's id (refreshing the session when needed), or null when the session is gone. */
async function userId(): Promise<string | null> {
  const { data, error } = await supabase.auth.getSession()
  if (error) throw error
  return data.session?.user.id ?? null
}

/** Writes the tray to the account (one row per user). */
async function pushCompare(user: string, entries: CompareEntry[]): Promise<void> {
  const { error } = await supabase
    .from('compare_lists')
    .upsert({ user_id: user, agent_ids: entries.map((entry) => entry.id) })
  if (error) throw error
}

/**
 * Merges this browser's tray with the account's, loads the saved agents, then keeps the account's tray up to date.
 * Runs once per page; errors are logged (the tray still works in this browser).
 */
export function startAccountSync(): Promise<void> {
  started ??= (async () => {
    const user = await userId()
    if (!user) {
      setSavedAgents(null)
      return
    }
    const [list, saved] = await Promise.all([
      supabase.from('compare_lists').select('agent_ids').eq('user_id', user).maybeSingle(),
      supabase.from('saved_agents').select('agent_id').eq('user_id', user),
    ])
    if (list.error) throw list.error
    if (saved.error) throw saved.error
    setSavedAgents(saved.data.map((row) => row.agent_id))

    const local = readCompare()
    const remote = (list.data?.agent_ids ?? []).filter((id) => !local.some((entry) => entry.id === id))
    const missing = remote.slice(0, Math.max(0, COMPARE_MAX_AGENTS - local.length))
    let merged = local
    if (missing.length > 0) {
      const { data: agents, error } = await supabase.from('agents').select('id, name').in('id', missing)
      if (error) throw error
      const names = new Map(agents.map((agent) => [agent.id, agent.name]))
      // an agent removed since it was picked is dropped
      merged = [...local, ...missing.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! }))]
      writeCompare(merged, 'account')
    }
    const same =
      list.data !== null &&
      list.data.agent_ids.length === merged.length &&
      merged.every((entry, index) => list.data!.agent_ids[index] === entry.id)
    if (!same) await pushCompare(user, merged)

    let pending = Promise.resolve()
    subscribeCompare((source) => {
      // the account's own writes and other tabs' (which push themselves) are not sent again
      if (source !== 'visitor') return
      pending = pending
        .then(() => pushCompare(user, readCompare()))
        .catch((error: unknown) => console.error('Could not save the compare list to your account', error))
    })
  })().catch((error: unknown) => {
    console.error('Could not load your saved agents and compare list', error)
  })
  return started
}

/**
 * Saves the agent to the signed-in visitor's account, or removes it when saved.
 * @throws Error('Sign in to save agents.') without a session; the database error when the change fails.
 */
export async function toggleSaved(agentId: string): Promise<void> {
  await startAccountSync()
  const user = await userId()
  if (!user) throw new Error('Sign in to save agents.')
  const current = new Set(savedAgents() ?? [])
  if (current.has(agentId)) {
    const { error } = await supabase.from('saved_agents').delete().eq('user_id', user).eq('agent_id', agentId)
    if (error) throw error
    current.delete(agentId)
  } else {
    const { error } = await supabase.from('saved_agents').insert({ user_id: user, agent_id: agentId })
    if (error) throw error
    current.add(agentId)
  }
  setSavedAgents(current)
}
