import { useSyncExternalStore } from 'react'

import { getPathname, subscribeToNavigation } from '../lib/navigation'

/** The current admin path, re-rendering on `navigate()` and back/forward. */
export function usePathname(): string {
  return useSyncExternalStore(subscribeToNavigation, getPathname)
}
