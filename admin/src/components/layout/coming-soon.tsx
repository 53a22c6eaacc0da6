import { useMatches } from '@tanstack/react-router'

import { sectionTitle } from './nav-items'

/** Placeholder for sections that a later issue builds; its heading is the section's title. */
export function ComingSoon() {
  const title = useMatches({ select: (matches) => sectionTitle(matches.at(-1)?.fullPath ?? '') })
  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-slate-600">Coming soon...</p>
    </section>
  )
}
