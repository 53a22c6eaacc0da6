import { useSyncExternalStore } from 'react'

import { subscribeToNavigation } from '../lib/navigation'

const getSearch = () => window.location.search

/**
 * The current query string as URLSearchParams, re-rendering on `navigate()` and back/forward. Validate what
 * you read with zod before trusting it.
 */
export function useSearchParams(): URLSearchParams {
  const search = useSyncExternalStore(subscribeToNavigation, getSearch)
  return new URLSearchParams(search)
}
