import { Slot } from '@radix-ui/react-slot'
import type { ComponentProps } from 'react'

import { cn } from '../../lib/utils'

const variants = {
  default: 'bg-blue-700 text-white hover:bg-blue-800',
  outline: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
  ghost: 'text-slate-700 hover:bg-slate-100',
} as const

export type ButtonProps = ComponentProps<'button'> & {
  variant?: keyof typeof variants
  /** Render the single child (e.g. an `<a>`) with button styles instead of a `<button>`. */
  asChild?: boolean
}

export function Button({ className, variant = 'default', asChild = false, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button'
  return (
    <Component
      type={asChild ? undefined : (type ?? 'button')}
      className={cn(
        'inline-flex h-10 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
        'disabled:pointer-events-none disabled:opacity-60',
        variants[variant],
        className,
      )}
      {...props}
    />
  )
}
