import type { ReactNode } from 'react'
import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react'

import { cn } from '@/lib/utils'

export type ToastInput = {
  title: string
  description?: string
  variant?: 'default' | 'error'
}

type ToastItem = ToastInput & { id: number }

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null)

/** How long a toast stays up, in milliseconds. */
const TOAST_DURATION_MS = 5000

/**
 * Holds the toasts of the app and renders them in a polite live region (role="status"), so screen readers
 * announce each one without moving focus.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([])
  const nextId = useRef(1)

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), [])
  const show = useCallback(
    (toast: ToastInput) => {
      const id = nextId.current++
      setToasts((current) => [...current.slice(-3), { ...toast, id }])
      window.setTimeout(() => dismiss(id), TOAST_DURATION_MS)
    },
    [dismiss],
  )

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div
        role="status"
        aria-live="polite"
        className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-full max-w-sm flex-col gap-2"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={cn(
              'pointer-events-auto flex items-start gap-3 rounded-lg border bg-white p-4 text-sm shadow-lg',
              toast.variant === 'error' ? 'border-red-300' : 'border-slate-200',
            )}
          >
            <div className="flex-1">
              <p className={cn('font-semibold', toast.variant === 'error' && 'text-red-700')}>{toast.title}</p>
              {toast.description && <p className="mt-0.5 text-slate-600">{toast.description}</p>}
            </div>
            <button
              type="button"
              aria-label="Dismiss notification"
              className="text-slate-500 hover:text-slate-700"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  )
}

/** Returns `toast({ title, description, variant })`; must be used under `ToastProvider`. */
export function useToast() {
  const show = useContext(ToastContext)
  if (!show) throw new Error('useToast must be used inside <ToastProvider>')
  return useMemo(() => ({ toast: show }), [show])
}
