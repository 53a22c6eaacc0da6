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
