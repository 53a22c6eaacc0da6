import { useCallback, useSyncExternalStore } from 'react'

/** Whether a CSS media query currently matches, e.g. `useMediaQuery('(max-width: 767px)')`. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches)
}

/** Under 768 px (Tailwind's `md` breakpoint): the sidebar is a drawer and lists are card rows. */
export const MOBILE_QUERY = '(max-width: 767px)'

/** Whether the screen is narrower than 768 px; lists render cards instead of tables then. */
export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY)
}
