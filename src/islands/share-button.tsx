import { useEffect, useState } from 'react'

interface Props {
  title: string
  /** Canonical URL of the article; shared instead of the address bar so tracking parameters never travel. */
  url: string
}

type Toast = { message: string; tone: 'success' | 'error' }

/**
 * Shares the article with the system share sheet (Web Share API) where the browser has one, otherwise copies the
 * link to the clipboard. Toasts "Link copied!" or "Failed to share"; a share sheet the user closes is not an error.
 */
export function ShareButton({ title, url }: Props) {
  const [toast, setToast] = useState<Toast | null>(null)

  useEffect(() => {
    if (!toast) return
    const timer = window.setTimeout(() => setToast(null), 4000)
    return () => window.clearTimeout(timer)
  }, [toast])

  async function onShare() {
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share({ title, url })
        return
      }
      await navigator.clipboard.writeText(url)
      setToast({ message: 'Link copied!', tone: 'success' })
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return
      console.error('Sharing failed', error)
      setToast({ message: 'Failed to share', tone: 'error' })
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={onShare}
        className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13" />
        </svg>
        Share
      </button>
      <div role="status" aria-live="polite" className="fixed bottom-4 right-4 z-50">
        {toast && (
          <p
            className={
              toast.tone === 'success'
                ? 'rounded-md bg-green-800 px-4 py-3 text-sm font-medium text-white shadow-lg'
                : 'rounded-md bg-red-800 px-4 py-3 text-sm font-medium text-white shadow-lg'
            }
          >
            {toast.message}
          </p>
        )}
      </div>
    </>
  )
}
