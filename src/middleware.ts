/**
 * Every HTML page, prerendered or rendered on demand, inlines only the CSS rules it can use (src/lib/page-css.ts)
 * and loads its processed scripts after the first paint (src/lib/after-paint.ts), with Astro's island runtime where
 * its islands all wait anyway.
 * The development server serves pages as they are: its script token lists would not follow edits.
 */
import { defineMiddleware } from 'astro:middleware'
import scriptTokens from 'virtual:page-css-script-tokens'

import { deferIslandRuntime, deferModuleScripts } from '~/lib/after-paint'
import { prunePageStyles } from '~/lib/page-css'

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next()
  if (import.meta.env.DEV || !(response.headers.get('content-type') ?? '').startsWith('text/html')) return response
  const html = await response.text()
  return new Response(deferIslandRuntime(deferModuleScripts(prunePageStyles(html, scriptTokens))), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
})
