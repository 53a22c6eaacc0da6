import { getRouteApi } from '@tanstack/react-router'
import { useId, useState } from 'react'

import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { AnalyticsSearchParamsSchema, type AnalyticsSearchParams } from '../api/analytics-period'

const route = getRouteApi('/_shell/analytics')

type FilterFields = { page: string; source: string; exclude: string }

/** What each filter field's rule says when it is broken (the same rules as AnalyticsSearchParamsSchema). */
const FIELD_PROBLEMS: Record<keyof FilterFields, string> = {
  page: 'Page must be a path starting with /, e.g. /blog.',
  source: 'Source must be 1 to 255 characters, e.g. google.com or Direct.',
  exclude: 'Exclude path must start with / and be more than / alone, e.g. /admin.',
}

/**
 * The analytics filters: one page (an exact path), one traffic source (the label the sources table shows:
 * utm_source, referrer host or Direct) and a path prefix to leave out. Applied to the URL (`?page=&source=&exclude=`),
 * so a filtered view can be reloaded and shared; a value that breaks its rule is named and not applied.
 * `pages` and `sources` fill the fields' suggestions.
 */
export function AnalyticsFilterBar({
  search,
  pages,
  sources,
}: {
  search: AnalyticsSearchParams
  pages: string[]
  sources: string[]
}) {
  const navigate = route.useNavigate()
  const id = useId()
  const current: FilterFields = { page: search.page ?? '', source: search.source ?? '', exclude: search.exclude ?? '' }
  const [fields, setFields] = useState(current)
  const [problem, setProblem] = useState<string | null>(null)
  const [shown, setShown] = useState(current)
  // the URL changed (Back, a link): show its filters
  if (shown.page !== current.page || shown.source !== current.source || shown.exclude !== current.exclude) {
    setShown(current)
    setFields(current)
  }
  const active = Boolean(search.page || search.source || search.exclude)

  function apply(next: FilterFields) {
    const trimmed = { page: next.page.trim(), source: next.source.trim(), exclude: next.exclude.trim() }
    for (const key of ['page', 'source', 'exclude'] as const) {
      if (trimmed[key] && AnalyticsSearchParamsSchema.shape[key].parse(trimmed[key]) === undefined) {
        setProblem(FIELD_PROBLEMS[key])
        return
      }
    }
    setProblem(null)
    void navigate({
      search: (prev) => ({
        ...prev,
        page: trimmed.page || undefined,
        source: trimmed.source || undefined,
        exclude: trimmed.exclude || undefined,
      }),
      replace: true,
    })
  }

  const field = (name: keyof FilterFields, label: string, placeholder: string, options: string[]) => (
    <div className="min-w-0 flex-1 basis-40">
      <label htmlFor={`${id}-${name}`} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      <Input
        id={`${id}-${name}`}
        list={options.length ? `${id}-${name}-options` : undefined}
        placeholder={placeholder}
        maxLength={300}
        value={fields[name]}
        onChange={(event) => setFields((prev) => ({ ...prev, [name]: event.target.value }))}
      />
      {options.length > 0 && (
        <datalist id={`${id}-${name}-options`}>
          {options.map((option) => (
            <option key={option} value={option} />
          ))}
        </datalist>
      )}
    </div>
  )

  return (
    <form
      aria-label="Filters"
      className="space-y-2 rounded-xl border border-slate-200 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault()
        apply(fields)
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        {field('page', 'Page', '/blog/first-time-buyers', pages)}
        {field('source', 'Source', 'google.com or Direct', sources)}
        {field('exclude', 'Exclude path', '/admin', [])}
        <div className="flex gap-2">
          <Button type="submit">Apply filters</Button>
          {active && (
            <Button variant="outline" onClick={() => apply({ page: '', source: '', exclude: '' })}>
              Clear filters
            </Button>
          )}
        </div>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {active && (
        <p data-testid="active-filters" className="text-xs text-slate-600">
          Showing {search.page ? `page ${search.page}` : 'all pages'}
          {search.source ? `, source ${search.source}` : ''}
          {search.exclude ? `, excluding ${search.exclude}` : ''}.
          {search.source && search.source !== 'Direct'
            ? ' Leads count only when their utm_source matches (leads store no referrer).'
            : ''}
        </p>
      )}
    </form>
  )
}
