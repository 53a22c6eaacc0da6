/**
 * discover-trending-topics (admin only): finds blog topics in the site's own signals (searches, ZIP market
 * benchmarks, closed sales, report requests, season) and queues them as pending trending_topics.
 *
 * POST {location?: string (default 'general'), count?: 1-50 (default 10)} -> 200 {topicsDiscovered: number}
 * POST {action: 'status'} or GET -> 200 {provider, model, label}: which writer is active (no secrets).
 * Errors: 400 {error} naming the bad field; 401 without a user token; 403 for non-admins; 500 {error:
 * 'Topic discovery failed'} otherwise (details in the function log).
 * Secrets: AI_PROVIDER, AI_BASE_URL, AI_API_KEY, AI_MODEL (see _shared/ai/config.ts); none means the built-in ranker.
 */
import { parseAiConfig, providerStatus } from '../_shared/ai/config.ts';
import { corsHeaders, json, requireAdmin, serviceClient } from '../_shared/ai/http.ts';
import { loadModelClient } from '../_shared/ai/load-model.ts';
import { discoverTopics } from '../_shared/ai/pipeline.ts';
import { DiscoverBodySchema, firstIssue } from '../_shared/ai/schemas.ts';

// fails the boot with a clear message when AI_* is inconsistent
const config = parseAiConfig(Deno.env.toObject());
// the AI SDK is loaded only when a provider is configured
const ai = config.provider === 'none' ? null : await loadModelClient(config);
console.log(`discover-trending-topics: ${providerStatus(config).label}`);

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

    const parsed = DiscoverBodySchema.safeParse(raw);
    if (!parsed.success) return json({ error: firstIssue(parsed.error) }, 400);

    const { inserted, usage } = await discoverTopics({ db: serviceClient(), config, ai }, parsed.data);
    if (usage) console.log(`discover-trending-topics usage ${JSON.stringify(usage)}`);
    return json({ topicsDiscovered: inserted.length });
  } catch (error) {
    console.error('discover-trending-topics failed', error);
    return json({ error: 'Topic discovery failed' }, 500);
  }
});
