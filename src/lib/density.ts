/**
 * The density badge's look on the public site (Tailwind classes live in src/, which Tailwind scans). The bands
 * themselves are the shared rule in @shared/density.ts.
 */
import { densityBand } from '@shared/density.ts'

export { actionabilityLabel, densityBand, densityLabel, isFeatured } from '@shared/density.ts'

/** Tailwind classes of the badge for a band: green, blue, yellow, gray, each with AA contrast. */
export function densityBadgeClass(score: number | null): string {
  return {
    high: 'bg-green-100 text-green-800 ring-green-200',
    medium: 'bg-brand-100 text-brand-900 ring-brand-200',
    fair: 'bg-yellow-100 text-yellow-900 ring-yellow-200',
    low: 'bg-slate-100 text-slate-700 ring-slate-200',
  }[densityBand(score)]
}
