/**
 * The cacheKey of a prerendered page (getStaticPaths): SHA-256 (hex) over the JSON of exactly the data the page
 * renders. Equal keys mean equal HTML for the same template, so Astro's incremental build reuses the cached page.
 */
import { createHash } from 'node:crypto'

/** SHA-256 (hex) of the JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex')
}
