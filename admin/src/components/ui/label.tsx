import type { ComponentProps, ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('text-sm font-medium text-slate-800', className)} {...props} />
}

/**
 * A form control with its label above it; `htmlFor` is the control's id. `counter` (e.g. '42/60') sits right of the
 * label, `hint` is a line of help below the control.
 */
export function FormField({
  htmlFor,
  label,
  className,
  hint,
  counter,
  children,
}: {
  htmlFor: string
  label: ReactNode
  className?: string
  hint?: ReactNode
  counter?: string
  children: ReactNode
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      {counter === undefined ? (
        <Label htmlFor={htmlFor}>{label}</Label>
      ) : (
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={htmlFor}>{label}</Label>
          <span className="text-xs text-slate-500 tabular-nums">{counter}</span>
        </div>
      )}
      {children}
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
    </div>
  )
}
