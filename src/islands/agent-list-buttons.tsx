import { Heart } from 'lucide-react'
import { useState, useSyncExternalStore } from 'react'

import { COMPARE_MAX_AGENTS } from '@shared/urls.ts'
import {
  compareSnapshot,
  notify,
  savedAgents,
  storedAccount,
  subscribeCompare,
  subscribeSaved,
  toggleCompare,
  toggleSavedAgent,
} from '~/lib/agent-lists'

const noEntries: never[] = []
const serverSaved = () => null

/** The compare tray (./agent-lists.ts), re-rendered when it changes in this tab or another. */
export function useCompareList() {
  return useSyncExternalStore(subscribeCompare, compareSnapshot, () => noEntries)
}

/**
 * "Add to compare" of one agent in a React view (result cards, the live profile): the same compare tray as the
 * prebuilt pages' checkboxes. Disabled when COMPARE_MAX_AGENTS others are picked.
 */
export function CompareCheckbox({
  id,
  name,
  label = 'Add to compare',
  boxed = false,
}: {
  id: string
  name: string
  label?: string
  /** Drawn as a bordered control (profile header) rather than a line of text (result card). */
  boxed?: boolean
}) {
  const entries = useCompareList()
  const checked = entries.some((entry) => entry.id === id)
  const full = !checked && entries.length >= COMPARE_MAX_AGENTS
  return (
    <label
      title={full ? `You can compare up to ${COMPARE_MAX_AGENTS} agents` : undefined}
      className={
        boxed
          ? `inline-flex cursor-pointer items-center gap-2 rounded-control border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100 ${full ? 'text-slate-500' : 'text-slate-800'}`
          : `mt-3 flex items-center gap-2 text-sm ${full ? 'text-slate-500' : 'text-slate-800'}`
      }
    >
      <input
        type="checkbox"
        checked={checked}
        disabled={full}
        onChange={() => toggleCompare({ id, name })}
        aria-label={`Add ${name} to compare`}
        className="h-4 w-4 accent-brand-700"
      />
      {label}
    </label>
  )
}

/**
 * The heart of one agent in a React view: saves the agent to the signed-in visitor's account or takes them off; a
 * visitor who is not signed in goes to sign in and comes back.
 */
export function SaveAgentHeart({ id, name }: { id: string; name: string }) {
  const saved = useSyncExternalStore(subscribeSaved, savedAgents, serverSaved)
  const [busy, setBusy] = useState(false)
  const pressed = saved?.has(id) ?? false
  async function toggle() {
    setBusy(true)
    try {
      await toggleSavedAgent(id)
      if (storedAccount()) notify(pressed ? 'Removed from your saved agents.' : 'Saved to your account.')
    } catch (error) {
      console.error('Saving the agent failed', error)
      notify('Could not save the agent. Please try again.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      onClick={() => void toggle()}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      aria-label={`Save ${name}`}
      title={`Save ${name}`}
      className="group inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-control border border-slate-300 bg-white text-slate-700 hover:bg-slate-100 hover:text-rose-700 focus-visible:outline-2 focus-visible:outline-brand-700 aria-pressed:border-rose-300 aria-pressed:text-rose-700 aria-busy:cursor-wait aria-busy:opacity-60"
    >
      <Heart aria-hidden="true" className="h-5 w-5 group-aria-pressed:fill-current" />
    </button>
  )
}
