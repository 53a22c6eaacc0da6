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
import { useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { navigate } from '@/lib/navigation'
import { cn } from '@/lib/utils'
import type { CalendarPost } from '@/features/blog/api/blog-queries'
import { postQueries } from '@/features/blog/api/blog-queries'

/** At most this many posts are listed in a day cell; the rest are summarised as '+N more'. */
const POSTS_PER_DAY = 2
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** The day a post sits on: when it was (or will be) published, else when it was written. */
function postDate(post: CalendarPost): Date {
  return new Date(post.published_at ?? post.created_at)
}

/** A month grid of posts (weeks start on Sunday) with the month's totals. */
export function CalendarMonth() {
  const [month, setMonth] = useState(() => startOfMonth(new Date()))
  const posts = useQuery(postQueries.month(month))
  const days = eachDayOfInterval({ start: startOfWeek(startOfMonth(month)), end: endOfWeek(endOfMonth(month)) })
  const all = posts.data ?? []
  const published = all.filter((post) => post.status === 'published').length

  return (
    <section aria-label="Content calendar" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-xl font-semibold">{format(month, 'MMMM yyyy')}</h2>
        <div className="ml-auto flex gap-2">
          <Button variant="outline" size="sm" onClick={() => setMonth((current) => subMonths(current, 1))}>
            Previous month
          </Button>
          <Button variant="outline" size="sm" onClick={() => setMonth((current) => addMonths(current, 1))}>
            Next month
          </Button>
        </div>
      </div>

      <dl className="grid grid-cols-3 gap-3 text-sm">
        {[
          ['Posts this month', all.length],
          ['Published', published],
          ['Drafts', all.length - published],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-2xl font-semibold">{posts.isPending ? '…' : value}</dd>
          </div>
        ))}
      </dl>

      {posts.isError && <Alert>Could not load the calendar: {posts.error.message}</Alert>}

      <div role="grid" aria-label={format(month, 'MMMM yyyy')} className="overflow-hidden rounded-xl border border-slate-200 bg-white">
        <div role="row" className="grid grid-cols-7 border-b border-slate-200 bg-slate-50 text-center text-xs font-medium text-slate-500">
          {WEEKDAYS.map((day) => (
            <div role="columnheader" key={day} className="py-2">
              {day}
            </div>
          ))}
        </div>
        <div className="grid grid-cols-7">
          {days.map((day) => {
            const dayPosts = all.filter((post) => isSameDay(postDate(post), day))
            const hidden = dayPosts.length - POSTS_PER_DAY
            return (
              <div
                role="gridcell"
                key={day.toISOString()}
                aria-label={format(day, 'MMMM d')}
                className={cn('min-h-24 border-r border-b border-slate-100 p-1.5 text-xs', !isSameMonth(day, month) && 'bg-slate-50 text-slate-400')}
              >
                <span className={cn('inline-flex size-6 items-center justify-center rounded-full', isToday(day) && 'bg-blue-700 text-white')}>
                  {format(day, 'd')}
                </span>
                <ul className="mt-1 space-y-1">
                  {dayPosts.slice(0, POSTS_PER_DAY).map((post) => (
                    <li key={post.id}>
                      <button
                        type="button"
                        title={post.title}
                        onClick={() => navigate(`/admin/blog?edit=${post.id}`)}
                        className={cn(
                          'block w-full truncate rounded px-1.5 py-0.5 text-left',
                          post.status === 'published' ? 'bg-green-100 text-green-900' : 'bg-amber-100 text-amber-900',
                        )}
                      >
                        {post.title}
                      </button>
                    </li>
                  ))}
                  {hidden > 0 && <li className="px-1.5 text-slate-500">+{hidden} more</li>}
                </ul>
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
}
