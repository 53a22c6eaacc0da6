/**
 * Where to go after signing in: `?next=` when it is a path of this site (the heart and /account send visitors here
 * with the page to come back to), else the home page. Anything else (another origin, `//host`, a scheme) is ignored.
 */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? ''
  return /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/'
}
