import { startTransition, useEffect, useState } from 'react'

/** What a live (API) load of an island is doing. */
export type LoadState<T> = { kind: 'loading' } | { kind: 'error' } | { kind: 'loaded'; value: T }

/**
 * Loads `load()` when `key` (what it loads, e.g. the agent ids) is known and again when it changes or on `retry`;
 * a late answer for an older key is dropped. A failure is logged under `logLabel` and becomes `{ kind: 'error' }`.
 * `key` null (still prerendering, or nothing valid to load) leaves the state at loading.
 */
export function useLiveLoad<T>(key: string | null, load: () => Promise<T>, logLabel: string) {
  const [state, setState] = useState<LoadState<T>>({ kind: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (key === null) return
    let cancelled = false
    load()
      .then((value) => {
        // a transition: React renders what was loaded (two to four agent profiles with their charts on /compare) in
        // slices that yield to the browser, instead of one long task that blocks the page (total blocking time)
        if (!cancelled) startTransition(() => setState({ kind: 'loaded', value }))
      })
      .catch((error: unknown) => {
        console.error(logLabel, error)
        if (!cancelled) setState({ kind: 'error' })
      })
    return () => {
      cancelled = true
    }
    // `key` names everything `load` reads; a new `load` closure each render must not reload
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt])

  function retry() {
    setState({ kind: 'loading' })
    setAttempt((value) => value + 1)
  }

  return { state, retry }
}

/** The error state of a live load: what failed, and Try Again. */
export function LoadError({
  title,
  message,
  onRetry,
  className,
}: {
  title?: string
  message: string
  onRetry: () => void
  className: string
}) {
  return (
    <section className={`mx-auto max-w-xl text-center ${className}`} role="alert">
      {title && <h2 className="text-2xl font-bold tracking-tight">{title}</h2>}
      <p className={title ? 'mt-3 text-slate-700' : 'text-slate-700'}>{message}</p>
      <button
        type="button"
        onClick={onRetry}
        className="mt-4 rounded-md bg-blue-700 px-5 py-2.5 font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      >
        Try Again
      </button>
    </section>
  )
}
