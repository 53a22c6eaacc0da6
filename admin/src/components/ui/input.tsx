import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

/** The look every text field, text area and select shares: border, white fill, blue focus ring, dimmed when disabled. */
export const FIELD_CLASS = cn(
  'w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs',
  'placeholder:text-slate-400 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-blue-700/30',
  'disabled:cursor-not-allowed disabled:opacity-60',
)

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(FIELD_CLASS, 'h-10', className)} {...props} />
}
