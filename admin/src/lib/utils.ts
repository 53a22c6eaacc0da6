import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

/**
 * Joins class names (clsx: strings, arrays, `{ class: condition }` objects, falsy values skipped) and lets a later
 * Tailwind class win over an earlier one of the same property (tailwind-merge), so `cn('bg-red-50', 'bg-amber-50')`
 * is just `bg-amber-50`.
 */
export function cn(...classes: ClassValue[]): string {
  return twMerge(clsx(classes))
}

/**
 * The time between two ISO 8601 instants as '12.3 s' under a minute, else '4 min 5 s'; '—' when either is missing
 * (not started, still running). A negative span (clocks apart) counts as 0 s.
 */
export function elapsedText(startIso: string | null, endIso: string | null): string {
  if (!startIso || !endIso) return '—'
  const seconds = Math.max(0, (Date.parse(endIso) - Date.parse(startIso)) / 1000)
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
}
