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
import { parseBody } from '@shared/http.ts'
import { json, serviceClient } from '@shared/ai/http.ts'
import { discoverTopics } from '@shared/ai/pipeline.ts'
import { DiscoverBodySchema } from '@shared/ai/schemas.ts'
import { serveAdminAiFunction } from '@shared/ai/serve.ts'

await serveAdminAiFunction({
  name: 'discover-trending-topics',
  failureMessage: 'Topic discovery failed',
  async handle(raw, { config, ai }) {
    const input = parseBody(DiscoverBodySchema, raw)
    const { inserted, usage } = await discoverTopics({ db: serviceClient(), config, ai }, input)
    if (usage) console.log(`discover-trending-topics usage ${JSON.stringify(usage)}`)
    return json({ topicsDiscovered: inserted.length })
  },
})
