import { useCallback, useEffect, useState, type ReactNode } from 'react'

export type ToastTone = 'success' | 'error'

interface Toast {
  message: string
  tone: ToastTone
  /** Distinguishes two identical toasts in a row so the timer restarts. */
  id: number
}

/**
 * A single polite toast for an island: `show('Link copied!')` puts the message in a live region at the bottom
 * right for four seconds. Returns the region (render it once) and `show`.
 */
export function useToast(): { toast: ReactNode; show: (message: string, tone?: ToastTone) => void } {
  const [current, setCurrent] = useState<Toast | null>(null)

  useEffect(() => {
    if (!current) return
    const timer = window.setTimeout(() => setCurrent(null), 4000)
    return () => window.clearTimeout(timer)
  }, [current])

  const show = useCallback(
    (message: string, tone: ToastTone = 'success') => setCurrent({ message, tone, id: Date.now() }),
    [],
  )

  const toast = (
    <div role="status" aria-live="polite" className="fixed bottom-4 right-4 z-50">
      {current && (
        <p
          key={current.id}
          className={
            current.tone === 'success'
              ? 'rounded-md bg-green-800 px-4 py-3 text-sm font-medium text-white shadow-lg'
              : 'rounded-md bg-red-800 px-4 py-3 text-sm font-medium text-white shadow-lg'
          }
        >
          {current.message}
        </p>
      )}
    </div>
  )
  return { toast, show }
}
