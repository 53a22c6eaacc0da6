/**
 * Links from the admin to the public site. The admin may be served from its own origin (its own domain, so its
 * session never shares storage with the public site's pages): the build then sets PUBLIC_SITE_URL, and every link to
 * a public page is absolute. Without it the admin lives under /admin/ of the site and the links stay relative.
 */
const SITE_URL = (import.meta.env.PUBLIC_SITE_URL ?? '').replace(/\/+$/, '')

if (SITE_URL && !/^https?:\/\/[^/]+$/.test(SITE_URL))
  throw new Error(`PUBLIC_SITE_URL must be the public site's origin (https://www.example.com), got ${SITE_URL}`)

/** The public site's address of `path` ('/blog/x' -> 'https://www.example.com/blog/x', or '/blog/x'). */
export function siteLink(path: string): string {
  return `${SITE_URL}${path}`
}

/** The host the public site answers on, for texts such as a search-result preview. */
export function siteHost(): string {
  return SITE_URL ? new URL(SITE_URL).host : window.location.host
}
