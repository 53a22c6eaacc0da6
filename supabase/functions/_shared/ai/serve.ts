/**
 * The shared shell of the admin-only AI functions (discover-trending-topics, generate-blog-content): reads and
 * checks the AI_* configuration at boot (a bad combination stops the function with a message naming the variable),
 * loads the AI SDK only when a provider is configured, then serves:
 * - OPTIONS -> CORS preflight; other methods than POST/GET -> 405.
 * - no user token -> 401, a non-admin -> 403 (requireAdmin).
 * - GET or POST {action: 'status'} -> 200 {provider, model, label} (no secrets).
 * - a body that is not a JSON object -> 400 {error: 'Body must be a JSON object'}.
 * - anything else -> `handle`; an exception it throws -> 500 {error: failureMessage} (details in the function log).
 */
import { parseAiConfig, providerStatus, type AiConfig } from './config.ts';
import { corsHeaders, json, requireAdmin } from './http.ts';
import { loadModelClient, type ModelClient } from './load-model.ts';

/** What `handle` gets besides the body: the configuration, the model client (null = built-in writer), the caller. */
export interface AiFunctionContext {
  config: AiConfig;
  ai: ModelClient | null;
  userId: string;
}

export async function serveAdminAiFunction(options: {
  /** Function slug, for log lines. */
  name: string;
  /** The 500 message visitors see. */
  failureMessage: string;
  handle(body: Record<string, unknown>, context: AiFunctionContext): Promise<Response>;
}): Promise<void> {
  const config = parseAiConfig(Deno.env.toObject());
  const ai = config.provider === 'none' ? null : await loadModelClient(config);
  console.log(`${options.name}: ${providerStatus(config).label}`);

  Deno.serve(async (request) => {
    if (request.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
    if (request.method !== 'POST' && request.method !== 'GET') return json({ error: 'Use POST' }, 405);
    try {
      const admin = await requireAdmin(request);
      if (!admin.ok) return admin.response;

      const raw = request.method === 'GET' ? { action: 'status' } : await request.json().catch(() => undefined);
      if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        return json({ error: 'Body must be a JSON object' }, 400);
      }
      if ((raw as { action?: unknown }).action === 'status') return json(providerStatus(config));
      return await options.handle(raw as Record<string, unknown>, { config, ai, userId: admin.userId });
    } catch (error) {
      console.error(`${options.name} failed`, error);
      return json({ error: options.failureMessage }, 500);
    }
  });
}
