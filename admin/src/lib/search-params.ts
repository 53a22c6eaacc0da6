import { stripSearchParams } from '@tanstack/react-router'
import type { z } from 'zod'

/**
 * How the admin's router reads and writes the query string: plain `key=value` pairs (URLSearchParams), no JSON,
 * so `?q=123` stays the text '123' and every route's zod schema decides the type. Empty strings and undefined are
 * left out, which keeps the default state's URL bare (`/admin/blog`, not `/admin/blog?q=&status=all`).
 */
export function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search))
}

/** The inverse of `parseSearch`: '?a=1&b=x' or '' when nothing is left. */
export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue
    params.set(key, String(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/**
 * A route's search options from its zod schema: `validateSearch` types and checks the query string, and a value equal
 * to its default is left out of the URL, so the default state keeps a bare address (`/admin/blog`, not
 * `/admin/blog?tab=posts`).
 */
export function searchWithDefaults<TSchema extends z.ZodType<object, object>>(
  schema: TSchema,
  defaults: Partial<z.output<TSchema>>,
) {
  return {
    validateSearch: schema,
    search: { middlewares: [stripSearchParams<z.output<TSchema>>(defaults)] },
  }
}
