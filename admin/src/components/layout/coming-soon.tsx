import { useMatches } from '@tanstack/react-router'

/** Placeholder for sections that a later issue builds; its heading is the route's `staticData.title`. */
export function ComingSoon() {
  const title = useMatches({ select: (matches) => matches.at(-1)?.staticData.title })
  return (
    <section>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-slate-600">Coming soon...</p>
    </section>
  )
}
