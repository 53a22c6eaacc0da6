import { useCallback, useEffect, useState, type ReactNode } from 'react'

export type ToastTone = 'success' | 'error'

interface Toast {
  message: string
  /** A second, smaller line under the message. */
  description?: string
  tone: ToastTone
  /** Distinguishes two identical toasts in a row so the timer restarts. */
  id: number
}

/**
 * A single polite toast for an island: `show('Link copied!')` puts the message (and an optional description line) in
 * a live region at the bottom right for four seconds. Returns the region (render it once) and `show`.
 */
export function useToast(): {
  toast: ReactNode
  show: (message: string, tone?: ToastTone, description?: string) => void
} {
  const [current, setCurrent] = useState<Toast | null>(null)

  useEffect(() => {
    if (!current) return
    const timer = window.setTimeout(() => setCurrent(null), 4000)
    return () => window.clearTimeout(timer)
  }, [current])

  const show = useCallback(
    (message: string, tone: ToastTone = 'success', description?: string) =>
      setCurrent({ message, description, tone, id: Date.now() }),
    [],
  )

  const toast = (
    <div role="status" aria-live="polite" className="fixed bottom-4 right-4 z-50">
      {current && (
        <div
          key={current.id}
          className={`max-w-sm rounded-md px-4 py-3 text-sm text-white shadow-lg ${current.tone === 'success' ? 'bg-green-800' : 'bg-red-800'}`}
        >
          <p className="font-medium">{current.message}</p>
          {current.description && <p className="mt-0.5">{current.description}</p>}
        </div>
      )}
    </div>
  )
  return { toast, show }
}
