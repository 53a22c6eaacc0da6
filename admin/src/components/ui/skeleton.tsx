import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

/** A grey pulsing block standing in for content that is loading. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-slate-200', className)} {...props} />
}
