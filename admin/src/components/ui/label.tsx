import type { ComponentProps, ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('text-sm font-medium text-slate-800', className)} {...props} />
}

/** The id of a form control's error message (`aria-describedby` of the control while `FormField` shows an error). */
export const fieldErrorId = (htmlFor: string) => `${htmlFor}-error`

/**
 * A form control with its label above it; `htmlFor` is the control's id. `counter` (e.g. '42/60 characters') sits
 * right of the label, `hint` is a line of help below the control, `error` a validation message below that (its id is
 * `fieldErrorId(htmlFor)`).
 */
export function FormField({
  htmlFor,
  label,
  className,
  hint,
  counter,
  error,
  children,
}: {
  htmlFor: string
  label: ReactNode
  className?: string
  hint?: ReactNode
  counter?: string
  error?: string
  children: ReactNode
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      {counter === undefined ? (
        <Label htmlFor={htmlFor}>{label}</Label>
      ) : (
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={htmlFor}>{label}</Label>
          <span className="text-xs text-slate-600 tabular-nums">{counter}</span>
        </div>
      )}
      {children}
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      {error && (
        <p id={fieldErrorId(htmlFor)} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
