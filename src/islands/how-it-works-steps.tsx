import { useState } from 'react'

const STEPS = [
  {
    title: 'Search for an agent',
    time: '30 seconds',
    body: 'Enter an agent name, a ZIP code or a property address. We match it against listing records to find the agents active there.',
  },
  {
    title: 'Review their track record',
    time: '2 minutes',
    body: 'See homes sold, sale-to-list price ratio and days on market side by side, so you can compare agents on results rather than marketing.',
  },
  {
    title: 'Choose with confidence',
    time: 'your timeline',
    body: 'Request a full agent report, take it to your interviews and pick the agent who fits your home and your goals.',
  },
]

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
            className="rounded-xl border-2 border-slate-200 bg-white p-6 aria-[current=step]:border-blue-700 aria-[current=step]:shadow-md"
          >
            <button
              type="button"
              onClick={() => setActive(i)}
              className="flex w-full items-center gap-3 text-left focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-blue-700 font-bold text-white">{i + 1}</span>
              <span className="text-lg font-semibold text-slate-900">{step.title}</span>
            </button>
            <p className="mt-2 text-sm font-medium text-blue-800">Time: {step.time}</p>
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
          className="rounded-md bg-blue-700 px-6 py-3 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          {last ? 'Start Your Search' : 'Next Step'}
        </button>
      </div>
    </div>
  )
}
