import * as Tabs from '@radix-ui/react-tabs'
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react'

import type { SearchType } from '@shared/search-contract.ts'
import { searchUrl } from '@shared/urls.ts'

const TABS: { value: SearchType; label: string; placeholder: string; inputLabel: string }[] = [
  { value: 'agent', label: 'Agent Name', placeholder: 'Enter an agent name, e.g. Jane Smith', inputLabel: 'Agent name' },
  { value: 'zipcode', label: 'ZIP Code', placeholder: 'Enter a ZIP code, e.g. 78701', inputLabel: 'ZIP code' },
  { value: 'address', label: 'Address', placeholder: 'Enter a property address', inputLabel: 'Property address' },
]

/**
 * The hero search: pick what to search by (agent name by default), type, and go to the results page. The text is kept
 * when switching tabs; the button stays disabled until there is something other than spaces to search for.
 */
export function HeroSearch() {
  const id = useId()
  const [type, setType] = useState<SearchType>('agent')
  const [text, setText] = useState('')
  const blank = text.trim() === ''
  const input = useRef<HTMLInputElement>(null)

  // The input is in the prebuilt HTML, so a visitor can type before React hydrates; keep that text instead of
  // leaving it on screen with the Search button still disabled.
  useEffect(() => {
    const typed = input.current?.value ?? ''
    if (typed !== '') setText(typed)
  }, [])

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    if (blank) return
    window.location.assign(searchUrl(text, type))
  }

  return (
    <Tabs.Root value={type} onValueChange={(value) => setType(value as SearchType)} className="w-full">
      <Tabs.List aria-label="Search by" className="flex gap-1 rounded-t-lg">
        {TABS.map((tab) => (
          <Tabs.Trigger
            key={tab.value}
            value={tab.value}
            className="rounded-t-md px-4 py-2 text-sm font-medium text-slate-700 hover:text-blue-800 focus-visible:outline-2 focus-visible:outline-blue-700 data-[state=active]:bg-white data-[state=active]:text-blue-800 data-[state=active]:shadow-sm"
          >
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {TABS.map((tab) => (
        <Tabs.Content key={tab.value} value={tab.value} className="rounded-b-lg rounded-tr-lg bg-white p-4 shadow-md">
          <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row" role="search">
            <label htmlFor={`${id}-${tab.value}`} className="sr-only">
              {tab.inputLabel}
            </label>
            <input
              id={`${id}-${tab.value}`}
              ref={tab.value === type ? input : undefined}
              type="text"
              name="q"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder={tab.placeholder}
              inputMode={tab.value === 'zipcode' ? 'numeric' : undefined}
              autoComplete={tab.value === 'address' ? 'street-address' : 'off'}
              className="min-w-0 flex-1 rounded-md border border-slate-400 px-4 py-3 text-base text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-blue-700"
            />
            <button
              type="submit"
              disabled={blank}
              className="rounded-md bg-blue-700 px-6 py-3 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900"
            >
              Search
            </button>
          </form>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}
