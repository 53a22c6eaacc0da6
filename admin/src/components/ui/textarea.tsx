import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'
import { FIELD_CLASS } from './input'

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(FIELD_CLASS, 'py-2', className)} {...props} />
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(FIELD_CLASS, 'h-10', className)} {...props} />
}
