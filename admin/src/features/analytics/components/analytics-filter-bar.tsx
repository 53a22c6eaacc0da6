import { zodResolver } from '@hookform/resolvers/zod'
import { getRouteApi } from '@tanstack/react-router'
import { useEffect, useId } from 'react'
import { useForm } from 'react-hook-form'

import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { AnalyticsFilterForm, AnalyticsSearchParams } from '../api/analytics-period'
import { AnalyticsFilterFormSchema } from '../api/analytics-period'

const route = getRouteApi('/_shell/analytics')

/**
 * The analytics filters: one page (an exact path), one traffic source (the label the sources table shows:
 * utm_source, referrer host or Direct) and a path prefix to leave out. Applied to the URL (`?page=&source=&exclude=`),
 * so a filtered view can be reloaded and shared; a value that breaks its rule is named and not applied
 * (react-hook-form with AnalyticsFilterFormSchema). `pages` and `sources` fill the fields' suggestions.
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
  const current: AnalyticsFilterForm = {
    page: search.page ?? '',
    source: search.source ?? '',
    exclude: search.exclude ?? '',
  }
  const form = useForm<AnalyticsFilterForm>({ resolver: zodResolver(AnalyticsFilterFormSchema), values: current })
  const active = Boolean(search.page || search.source || search.exclude)
  const { errors } = form.formState
  const problem = errors.page?.message ?? errors.source?.message ?? errors.exclude?.message

  // the URL changed (Back, a link): the fields show its filters (react-hook-form's `values`), without old errors
  const { clearErrors } = form
  useEffect(() => clearErrors(), [search.page, search.source, search.exclude, clearErrors])

  function apply(next: AnalyticsFilterForm) {
    void navigate({
      search: (prev) => ({
        ...prev,
        page: next.page || undefined,
        source: next.source || undefined,
        exclude: next.exclude || undefined,
      }),
      replace: true,
    })
  }

  const field = (name: keyof AnalyticsFilterForm, label: string, placeholder: string, options: string[]) => (
    <div className="min-w-0 flex-1 basis-40">
      <label htmlFor={`${id}-${name}`} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      <Input
        id={`${id}-${name}`}
        list={options.length ? `${id}-${name}-options` : undefined}
        placeholder={placeholder}
        maxLength={300}
        aria-invalid={errors[name] ? true : undefined}
        {...form.register(name)}
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
      noValidate
      className="space-y-2 rounded-xl border border-slate-200 bg-white p-4"
      onSubmit={(event) => void form.handleSubmit(apply)(event)}
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
