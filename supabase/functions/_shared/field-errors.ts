/**
 * The one way a zod failure becomes a caller-facing answer, for every edge function (through the request shell's
 * `parseBody`, ./http.ts) and for the site's forms that check the same schemas before sending. No Deno APIs, so
 * Node, Deno and the browser can load it.
 */
import type { z } from 'zod'

/**
 * One message per field, the first problem found for it, keyed by the dotted path of the field (`body` for the
 * body as a whole). An unknown key of a strict schema is reported under its own name as `Unknown field: <key>`.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const parent = issue.path.map(String).join('.')
      for (const key of issue.keys) errors[parent ? `${parent}.${key}` : key] ??= `Unknown field: ${key}`
      continue
    }
    errors[issue.path.map(String).join('.') || 'body'] ??= issue.message
  }
  return errors
}

/** The message of the first field in `errors` (what a one-line `error` says), or `fallback` when there is none. */
export function firstFieldMessage(errors: Record<string, string>, fallback = 'Invalid request'): string {
  return Object.values(errors)[0] ?? fallback
}
