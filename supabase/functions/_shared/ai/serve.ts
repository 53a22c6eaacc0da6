/**
 * The shared shell of the admin-only AI functions (discover-trending-topics, generate-blog-content), on top of the
 * one request shell (@shared/http.ts: CORS limited to the site's origins, 64 KB body cap, JSON content type,
 * control characters refused, generic 500s). It reads and checks the AI_* configuration at boot (a bad
 * combination stops the function with a message naming the variable), loads the AI SDK only when a provider is
 * configured, then serves:
 * - no user token -> 401, a non-admin (or an enrolled admin without aal2) -> 403 (requireAdmin).
 * - GET or POST {action: 'status'} -> 200 {provider, model, label} (no secrets).
 * - a body that is not a JSON object -> 400 {error: 'Body must be a JSON object'}.
 * - anything else -> `handle`; an exception it throws -> 500 {error: failureMessage} (details in the function log).
 */
import { serveFunction } from '../http.ts'
import { parseAiConfig, providerStatus, type AiConfig } from './config.ts'
import { requireAdmin } from './http.ts'
import { loadModelClient, type ModelClient } from './load-model.ts'

/** What `handle` gets besides the body: the configuration, the model client (null = built-in writer), the caller. */
export interface AiFunctionContext {
  config: AiConfig
  ai: ModelClient | null
  userId: string
}

export async function serveAdminAiFunction(options: {
  /** Function slug, for log lines. */
  name: string
  /** The 500 message visitors see. */
  failureMessage: string
  handle(body: Record<string, unknown>, context: AiFunctionContext): Promise<Response>
}): Promise<void> {
  const config = parseAiConfig(Deno.env.toObject())
  const ai = config.provider === 'none' ? null : await loadModelClient(config)
  console.log(`${options.name}: ${providerStatus(config).label}`)

  serveFunction({
    name: options.name,
    cors: 'site',
    methods: ['GET', 'POST'],
    failureMessage: options.failureMessage,
    invalidBodyMessage: 'Body must be a JSON object',
    async handle({ request, body, json }) {
      const admin = await requireAdmin(request)
      if (!admin.ok) return json({ error: admin.error }, admin.status)
      const raw = body ?? { action: 'status' }
      if (raw.action === 'status') return json(providerStatus(config))
      const response = await options.handle(raw, { config, ai, userId: admin.userId })
      // the handlers answer through http.ts's json(); add this request's CORS headers
      const headers = new Headers(response.headers)
      for (const [name, value] of json(null).headers)
        if (name.startsWith('access-control') || name === 'vary') headers.set(name, value)
      return new Response(response.body, { status: response.status, headers })
    },
  })
}
