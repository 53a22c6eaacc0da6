import { useQuery } from '@tanstack/react-query'
import {
  addMonths,
  eachDayOfInterval,
  endOfMonth,
  endOfWeek,
  format,
  isSameDay,
  isSameMonth,
  isToday,
  startOfMonth,
  startOfWeek,
  subMonths,
} from 'date-fns'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogCloseFooter, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { cn } from '@/lib/utils'
import type { CalendarPost } from '@/features/blog/api/blog-queries'
import { postQueries } from '@/features/blog/api/blog-queries'
import { postState, type PostState } from '@/features/blog/api/blog-schemas'

/** At most this many posts are listed in a day cell; the rest are summarised as '+N more'. */
const POSTS_PER_DAY = 2
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** The day a post sits on: when it was (or will be) published, else when it was written. */
function postDate(post: CalendarPost): Date {
  return new Date(post.published_at ?? post.created_at)
}

const STATE_STYLES: Record<PostState, string> = {
  published: 'bg-green-100 text-green-900',
  scheduled: 'bg-blue-100 text-blue-900',
  draft: 'bg-amber-100 text-amber-900',
}
const STATE_LABELS: Record<PostState, string> = { published: 'Published', scheduled: 'Scheduled', draft: 'Draft' }

type CalendarMonthProps = {
  /** The first day of the month shown. */
  month: Date
  onMonthChange: (month: Date) => void
  /** The day whose posts are all listed (after '+N more'), or null. */
  expandedDay: Date | null
  onExpandDay: (day: Date | null) => void
}

/**
 * A month grid of posts (weeks start on Sunday) with the month's totals. Published, scheduled (published with a
 * future date) and draft posts have their own colour; a post opens in the editor; '+N more' lists the whole day.
 */
export function CalendarMonth({ month, onMonthChange, expandedDay, onExpandDay }: CalendarMonthProps) {
  const navigate = useNavigate()
  const posts = useQuery(postQueries.month(month))
  const days = eachDayOfInterval({ start: startOfWeek(startOfMonth(month)), end: endOfWeek(endOfMonth(month)) })
  const all = posts.data ?? []
  const counts = { published: 0, scheduled: 0, draft: 0 }
  for (const post of all) counts[postState(post)] += 1
  const edit = (id: string) => void navigate({ to: '/blog', search: { edit: id } })
  const expandedPosts = expandedDay ? all.filter((post) => isSameDay(postDate(post), expandedDay)) : []

  return (
    <section aria-label="Content calendar" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-xl font-semibold">{format(month, 'MMMM yyyy')}</h2>
        <div className="ml-auto flex gap-2">
          <Button variant="outline" size="sm" onClick={() => onMonthChange(subMonths(month, 1))}>
            Previous month
          </Button>
          <Button variant="outline" size="sm" onClick={() => onMonthChange(addMonths(month, 1))}>
            Next month
          </Button>
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {[
          ['Posts this month', all.length],
          ['Published', counts.published],
          ['Scheduled', counts.scheduled],
          ['Drafts', counts.draft],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-2xl font-semibold">{posts.isPending ? '…' : value}</dd>
          </div>
        ))}
      </dl>

      {posts.isError && <Alert>Could not load the calendar: {posts.error.message}</Alert>}

      <div
        role="grid"
        aria-label={format(month, 'MMMM yyyy')}
        className="overflow-hidden rounded-xl border border-slate-200 bg-white"
      >
        <div
          role="row"
          className="grid grid-cols-7 border-b border-slate-200 bg-slate-50 text-center text-xs font-medium text-slate-500"
        >
          {WEEKDAYS.map((day) => (
            <div role="columnheader" key={day} className="py-2">
              {day}
            </div>
          ))}
        </div>
        {Array.from({ length: Math.ceil(days.length / 7) }, (_, week) => (
          <div role="row" key={week} className="grid grid-cols-7">
            {days.slice(week * 7, week * 7 + 7).map((day) => {
              const dayPosts = all.filter((post) => isSameDay(postDate(post), day))
              const hidden = dayPosts.length - POSTS_PER_DAY
              return (
                <div
                  role="gridcell"
                  key={day.toISOString()}
                  aria-label={format(day, 'MMMM d')}
                  className={cn(
                    'min-h-24 border-r border-b border-slate-100 p-1.5 text-xs',
                    !isSameMonth(day, month) && 'bg-slate-50 text-slate-500',
                  )}
                >
                  <span
                    className={cn(
                      'inline-flex size-6 items-center justify-center rounded-full',
                      isToday(day) && 'bg-blue-700 text-white',
                    )}
                  >
                    {format(day, 'd')}
                  </span>
                  <ul className="mt-1 space-y-1">
                    {dayPosts.slice(0, POSTS_PER_DAY).map((post) => (
                      <li key={post.id}>
                        <button
                          type="button"
                          title={`${STATE_LABELS[postState(post)]}: ${post.title}`}
                          aria-label={`${STATE_LABELS[postState(post)]}: ${post.title}`}
                          onClick={() => edit(post.id)}
                          className={cn(
                            'block w-full truncate rounded px-1.5 py-0.5 text-left',
                            STATE_STYLES[postState(post)],
                          )}
                        >
                          {postState(post) === 'scheduled' && <span aria-hidden="true">⏰ </span>}
                          {post.title}
                        </button>
                      </li>
                    ))}
                    {hidden > 0 && (
                      <li>
                        <button
                          type="button"
                          className="px-1.5 text-blue-700 hover:underline"
                          aria-label={`${hidden} more posts on ${format(day, 'MMMM d')}`}
                          onClick={() => onExpandDay(day)}
                        >
                          +{hidden} more
                        </button>
                      </li>
                    )}
                  </ul>
                </div>
              )
            })}
          </div>
        ))}
      </div>

      <Dialog open={expandedDay !== null} onOpenChange={(open) => !open && onExpandDay(null)}>
        <DialogContent className="max-w-md">
          <DialogTitle>{expandedDay ? format(expandedDay, 'EEEE, MMMM d') : ''}</DialogTitle>
          <DialogDescription>Every post on this day.</DialogDescription>
          <ul className="mt-4 space-y-2">
            {expandedPosts.map((post) => (
              <li key={post.id}>
                <button
                  type="button"
                  onClick={() => edit(post.id)}
                  className={cn(
                    'flex w-full items-center justify-between gap-2 rounded px-2 py-1.5 text-left text-sm',
                    STATE_STYLES[postState(post)],
                  )}
                >
                  <span className="truncate">{post.title}</span>
                  <span className="shrink-0 text-xs">{STATE_LABELS[postState(post)]}</span>
                </button>
              </li>
            ))}
          </ul>
          <DialogCloseFooter />
        </DialogContent>
      </Dialog>
    </section>
  )
}

/** The calendar with its month and open day kept in component state (the Blog page's Content Calendar tab). */
export function CalendarMonthWithState() {
  const [month, setMonth] = useState(() => startOfMonth(new Date()))
  const [day, setDay] = useState<Date | null>(null)
  return <CalendarMonth month={month} onMonthChange={setMonth} expandedDay={day} onExpandDay={setDay} />
}
