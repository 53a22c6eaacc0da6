import { useState } from 'react'

interface Testimonial {
  quote: string
  name: string
  role: string
}

const TESTIMONIALS: Testimonial[] = [
  {
    quote:
      'We interviewed three agents and the report made the choice obvious: one of them consistently sold close to list price in our neighborhood.',
    name: 'Maria L.',
    role: 'Home seller',
  },
  {
    quote:
      'As first-time buyers we had no idea what to ask. Seeing days on market and past sales gave us real questions for every interview.',
    name: 'James and Priya K.',
    role: 'First-time buyers',
  },
  {
    quote:
      'I was relocating across the country and could not meet agents in person. Comparing their track records online saved me weeks.',
    name: 'Daniel R.',
    role: 'Relocating buyer',
  },
  {
    quote:
      'The sample report showed exactly what I would get. The full report for my agent was clear, specific and easy to share with my spouse.',
    name: 'Angela W.',
    role: 'Move-up buyer',
  },
]

const STATS = [
  { value: '10,000+', label: 'Reports generated' },
  { value: '$2.5M+', label: 'Saved by our users' },
  { value: '4.9/5', label: 'Average rating' },
]

/** What users say: one testimonial at a time, moved only by the Previous/Next buttons, wrapping at both ends. */
export function TestimonialCarousel() {
  const [index, setIndex] = useState(0)
  const count = TESTIMONIALS.length
  const current = TESTIMONIALS[index]!
  const move = (step: number) => setIndex((i) => (i + step + count) % count)

  return (
    <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <div role="group" aria-roledescription="carousel" aria-label="Testimonials">
        <figure aria-live="polite" aria-atomic="true" className="min-h-40">
          <p className="sr-only">
            Testimonial {index + 1} of {count}
          </p>
          <blockquote className="text-lg text-slate-800">&ldquo;{current.quote}&rdquo;</blockquote>
          <figcaption className="mt-4 text-sm">
            <span className="font-semibold text-slate-900">{current.name}</span>
            <span className="text-slate-600">, {current.role}</span>
          </figcaption>
        </figure>
        {/* one row at every width: short visible labels, the full names for assistive technology */}
        <div className="mt-6 flex flex-nowrap items-center gap-2 sm:gap-3" data-testid="testimonial-controls">
          <button
            type="button"
            onClick={() => move(-1)}
            className="shrink-0 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <span aria-hidden="true">&larr; </span>Previous<span className="sr-only sm:not-sr-only"> testimonial</span>
          </button>
          <button
            type="button"
            onClick={() => move(1)}
            className="shrink-0 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            Next<span className="sr-only sm:not-sr-only"> testimonial</span>
            <span aria-hidden="true"> &rarr;</span>
          </button>
          <span className="ml-auto shrink-0 text-sm whitespace-nowrap text-slate-600" aria-hidden="true">
            {index + 1} / {count}
          </span>
        </div>
      </div>
      <dl className="mt-8 grid grid-cols-3 gap-2 border-t border-slate-200 pt-6 text-center sm:gap-4">
        {STATS.map((stat) => (
          <div key={stat.label} className="flex min-w-0 flex-col">
            <dt className="text-xs text-slate-600 sm:text-sm">{stat.label}</dt>
            <dd className="order-first text-xl font-bold text-brand-800 sm:text-2xl">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
