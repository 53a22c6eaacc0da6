import { useState } from 'react'

import { COMPARE_MAX_AGENTS, compareUrl } from '@shared/urls.ts'

export interface CompareSelection {
  ids: string[]
  toggle(id: string): void
}

/** The agents picked for /compare on the results page (2 to COMPARE_MAX_AGENTS, in the order picked). */
export function useCompareSelection(): CompareSelection {
  const [ids, setIds] = useState<string[]>([])
  return {
    ids,
    toggle: (id) =>
      setIds((current) =>
        current.includes(id)
          ? current.filter((other) => other !== id)
          : current.length < COMPARE_MAX_AGENTS
            ? [...current, id]
            : current,
      ),
  }
}

/** "Add to compare" checkbox of one result card; disabled once COMPARE_MAX_AGENTS others are picked. */
export function CompareToggle({ selection, id, name }: { selection: CompareSelection; id: string; name: string }) {
  const checked = selection.ids.includes(id)
  const full = !checked && selection.ids.length >= COMPARE_MAX_AGENTS
  return (
    <label className={`mt-3 flex items-center gap-2 text-sm ${full ? 'text-slate-500' : 'text-slate-800'}`}>
      <input
        type="checkbox"
        checked={checked}
        disabled={full}
        onChange={() => selection.toggle(id)}
        aria-label={`Add ${name} to compare`}
        className="h-4 w-4 accent-blue-700"
      />
      Add to compare
    </label>
  )
}

/** The bar that appears once an agent is picked: how many, and the Compare link (from 2 agents on). */
export function CompareBar({ selection }: { selection: CompareSelection }) {
  if (selection.ids.length === 0) return null
  const ready = selection.ids.length >= 2
  return (
    <div
      className="sticky bottom-4 z-10 mx-auto mt-6 flex max-w-md items-center justify-between gap-3 rounded-lg border border-slate-300 bg-white p-3 shadow-lg"
      role="region"
      aria-label="Compare selection"
    >
      <p className="text-sm text-slate-800">
        {selection.ids.length} of {COMPARE_MAX_AGENTS} selected{ready ? '' : ': pick one more'}
      </p>
      {ready ? (
        <a
          href={compareUrl(selection.ids)}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800"
        >
          Compare {selection.ids.length} agents
        </a>
      ) : (
        <span aria-disabled="true" className="rounded-md bg-slate-200 px-4 py-2 text-sm font-semibold text-slate-600">
          Compare
        </span>
      )}
    </div>
  )
}
