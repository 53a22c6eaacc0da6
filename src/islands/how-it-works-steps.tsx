import { useState } from 'react'

import { HOW_IT_WORKS_STEPS } from '~/lib/how-it-works'

const STEPS = HOW_IT_WORKS_STEPS

/**
 * The three-step explainer. "Next Step" walks through the steps; on the last one the button becomes
 * "Start Your Search" and scrolls to the hero search (element `#search`), focusing its input.
 */
export function HowItWorksSteps() {
  const [active, setActive] = useState(0)
  const last = active === STEPS.length - 1

  function onNext() {
    if (!last) {
      setActive(active + 1)
      return
    }
    const search = document.getElementById('search')
    search?.scrollIntoView({ behavior: 'smooth', block: 'center' })
    search?.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true })
  }

  return (
    <div>
      <ol className="grid gap-4 md:grid-cols-3">
        {STEPS.map((step, i) => (
          <li
            key={step.title}
            aria-current={i === active ? 'step' : undefined}
            className="rounded-card border-2 border-slate-200 bg-white p-6 aria-[current=step]:border-brand-700 aria-[current=step]:shadow-md"
          >
            <button
              type="button"
              onClick={() => setActive(i)}
              className="flex w-full items-center gap-3 text-left focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white">
                {i + 1}
              </span>
              <span className="text-lg font-semibold text-slate-900">{step.title}</span>
            </button>
            <p className="mt-2 text-sm font-medium text-brand-800">Time: {step.time}</p>
            <p className="mt-2 text-slate-700">{step.body}</p>
          </li>
        ))}
      </ol>
      <p className="sr-only" aria-live="polite">
        Step {active + 1} of {STEPS.length}: {STEPS[active]!.title}
      </p>
      <div className="mt-6 text-center">
        <button
          type="button"
          onClick={onNext}
          className="rounded-md bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          {last ? 'Start Your Search' : 'Next Step'}
        </button>
      </div>
    </div>
  )
}
