import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

/** An error message announced to screen readers as soon as it appears. */
export function Alert({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      role="alert"
      className={cn('rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800', className)}
      {...props}
    />
  )
}
