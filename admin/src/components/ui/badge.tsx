import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

const variants = {
  default: 'bg-slate-100 text-slate-700',
  success: 'bg-green-100 text-green-800',
  warning: 'bg-amber-100 text-amber-800',
  info: 'bg-blue-100 text-blue-800',
  danger: 'bg-red-100 text-red-800',
  accent: 'bg-violet-100 text-violet-800',
} as const

export type BadgeVariant = keyof typeof variants

/** A status pill; every status badge of the admin (posts, leads, builds) is one of these colours. */
export function Badge({
  className,
  variant = 'default',
  ...props
}: ComponentProps<'span'> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        variants[variant],
        className,
      )}
      {...props}
    />
  )
}
