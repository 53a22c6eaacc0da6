import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

/** A boxed message: `destructive` (the default) for errors, `warning` for a consequence to weigh before saving. */
export const alertVariants = cva('rounded-md border px-3 py-2 text-sm', {
  variants: {
    variant: {
      destructive: 'border-red-200 bg-red-50 text-red-800',
      warning: 'border-amber-300 bg-amber-50 text-amber-900',
    },
  },
  defaultVariants: { variant: 'destructive' },
})

/** A message announced to screen readers as soon as it appears (role="alert"). */
export function Alert({ className, variant, ...props }: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  return <div role="alert" className={cn(alertVariants({ variant }), className)} {...props} />
}
