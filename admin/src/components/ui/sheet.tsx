import * as DialogPrimitive from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'

import { cn } from '@/lib/utils'

export const SheetClose = DialogPrimitive.Close

/**
 * A drawer along one edge of the screen over a dimmed page (Radix Dialog: focus trapped, Escape and a tap outside
 * close it). `title` names it for screen readers and is shown unless `hideTitle`; `header` sits beside a shown title
 * (e.g. a Done button). Used for the mobile navigation and the post editor's settings under 1024 px.
 */
export function Sheet({
  open,
  onOpenChange,
  side,
  title,
  hideTitle = false,
  header,
  className,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  side: 'left' | 'right'
  title: string
  hideTitle?: boolean
  header?: ReactNode
  className?: string
  children: ReactNode
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-950/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            'fixed inset-y-0 z-50 bg-white shadow-lg focus:outline-none',
            side === 'left' ? 'left-0 border-r border-slate-200' : 'right-0 border-l border-slate-200',
            className,
          )}
        >
          {hideTitle ? (
            <DialogPrimitive.Title className="sr-only">{title}</DialogPrimitive.Title>
          ) : (
            <div className="mb-4 flex items-center justify-between gap-2">
              <DialogPrimitive.Title className="text-base font-semibold">{title}</DialogPrimitive.Title>
              {header}
            </div>
          )}
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}
