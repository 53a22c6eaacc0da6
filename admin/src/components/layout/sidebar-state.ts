/**
 * The sidebar's expanded/collapsed choice, kept in a cookie (not localStorage) so a future server render could
 * read it too. `true` means expanded, as in shadcn/ui's sidebar.
 */
export const SIDEBAR_COOKIE_NAME = 'sidebar_state'
/** Seven days, in seconds. */
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7

/** Reads the cookie; expanded when it is missing or unreadable. */
export function readSidebarExpanded(cookie: string = document.cookie): boolean {
  const entry = cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SIDEBAR_COOKIE_NAME}=`))
  return entry?.slice(SIDEBAR_COOKIE_NAME.length + 1) !== 'false'
}

export function writeSidebarExpanded(expanded: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE_NAME}=${expanded}; max-age=${SIDEBAR_COOKIE_MAX_AGE}; path=/admin; samesite=lax`
}
