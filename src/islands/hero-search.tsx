import * as Tabs from '@radix-ui/react-tabs'
import { Home, MapPin, Search, UserRound } from 'lucide-react'
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react'

import type { SearchType } from '@shared/search-contract.ts'
import { searchQueryProblem } from '@shared/search-query-rules.ts'
import { searchUrl } from '@shared/urls.ts'

const TABS = [
  {
    value: 'agent',
    label: 'Agent Name',
    placeholder: 'Enter an agent name, e.g. Jane Smith',
    inputLabel: 'Agent name',
    Icon: UserRound,
  },
  {
    value: 'zipcode',
    label: 'ZIP Code',
    placeholder: 'Enter a ZIP code, e.g. 78701',
    inputLabel: 'ZIP code',
    Icon: MapPin,
  },
  {
    value: 'address',
    label: 'Address',
    placeholder: 'Enter a property address',
    inputLabel: 'Property address',
    Icon: Home,
  },
] as const satisfies readonly {
  value: SearchType
  label: string
  placeholder: string
  inputLabel: string
  Icon: unknown
}[]

interface HeroSearchProps {
  /** Prefill (the results page passes the current `q` and `type`). */
  initialQuery?: string
  initialType?: SearchType
  /** A message to show under the box from the start, e.g. the search function's 400 answer on the results page. */
  initialError?: string | null
}

/**
 * The search box of the home, /search and /search-results: pick what to search by (agent name by default), type,
 * and go to the results page. The text is kept when switching tabs; the button stays disabled until there is
 * something other than spaces. A query the search function would refuse (too long, not a ZIP code on the ZIP tab)
 * is not sent: the function's own message (@shared/search-query-rules.ts) is shown under the box instead.
 */
export function HeroSearch({ initialQuery = '', initialType = 'agent', initialError = null }: HeroSearchProps) {
  const id = useId()
  const [type, setType] = useState<SearchType>(initialType)
  const [text, setText] = useState(initialQuery)
  const [problem, setProblem] = useState<string | null>(initialError)
  const blank = text.trim() === ''
  const input = useRef<HTMLInputElement>(null)

  // The input is in the prebuilt HTML, so a visitor can type before React hydrates; keep that text instead of
  // leaving it on screen with the Search button still disabled.
  useEffect(() => {
    const typed = input.current?.value ?? ''
    if (typed !== '' && typed !== initialQuery) setText(typed)
  }, [initialQuery])

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault()
    if (blank) return
    const found = searchQueryProblem(text, type)
    setProblem(found)
    if (found) {
      input.current?.focus()
      return
    }
    window.location.assign(searchUrl(text, type))
  }

  const errorId = `${id}-error`
  return (
    <Tabs.Root
      value={type}
      onValueChange={(value) => {
        setType(value as SearchType)
        setProblem(null)
      }}
      className="w-full"
    >
      <Tabs.List aria-label="Search by" className="flex gap-1 overflow-x-auto">
        {TABS.map(({ value, label, Icon }) => (
          <Tabs.Trigger
            key={value}
            value={value}
            className="inline-flex shrink-0 items-center gap-1.5 rounded-t-control px-3 py-2 text-sm font-medium text-slate-700 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm sm:px-4"
          >
            <Icon aria-hidden="true" className="h-4 w-4" />
            {label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {TABS.map((tab) => (
        <Tabs.Content
          key={tab.value}
          value={tab.value}
          className="rounded-b-card rounded-tr-card bg-white p-3 shadow-md sm:p-4"
        >
          {/* action and type: before React hydrates (client:interaction on the home page) the form still searches */}
          <form
            action="/search-results"
            onSubmit={onSubmit}
            noValidate
            className="flex flex-col gap-3 sm:flex-row"
            role="search"
          >
            <label htmlFor={`${id}-${tab.value}`} className="sr-only">
              {tab.inputLabel}
            </label>
            <input
              id={`${id}-${tab.value}`}
              ref={tab.value === type ? input : undefined}
              type="text"
              name="q"
              value={text}
              onChange={(event) => {
                setText(event.target.value)
                if (problem) setProblem(null)
              }}
              placeholder={tab.placeholder}
              inputMode={tab.value === 'zipcode' ? 'numeric' : undefined}
              autoComplete={tab.value === 'address' ? 'street-address' : 'off'}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? errorId : undefined}
              className="min-w-0 flex-1 rounded-control border border-slate-400 px-4 py-3 text-base text-slate-900 focus:border-brand-700 focus:outline-2 focus:outline-brand-700 aria-invalid:border-red-700"
            />
            <button
              type="submit"
              disabled={blank}
              className="inline-flex items-center justify-center gap-2 rounded-control bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400 disabled:text-slate-900"
            >
              <Search aria-hidden="true" className="h-4 w-4" />
              Search
            </button>
            {/* last, so `#search input` (the steps' and call to action's focus target) is still the text box */}
            <input type="hidden" name="type" value={tab.value} />
          </form>
          {problem && tab.value === type && (
            <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-red-800">
              {problem}
            </p>
          )}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}
