/**
 * generate-blog-content (admin only): writes a blog post about a trending topic or a custom topic, from the data.
 *
 * POST {topicId?: uuid, customTopic?: string, categoryId?: uuid | null, autoPublish?: boolean}
 *   -> 202 {jobId, status: 'pending'} at once; the job then moves generating -> completed (blog_post_id set, post
 *   published when autoPublish) or failed (error_message). A chosen topic wins over a custom one. The admin follows
 *   the content_generation_jobs row.
 * POST {action: 'status'} or GET -> 200 {provider, model, label}: which writer is active (no secrets).
 * Errors: 400 {error: 'Please select a topic or enter a custom topic'} or naming the bad field; 404 for an unknown
 * topicId; 401 without a user token; 403 for non-admins; 500 {error: 'Content generation failed'}.
 */
import { parseBody } from '@shared/http.ts'
import { json, runInBackground, serviceClient } from '@shared/ai/http.ts'
import { createGenerationJob, runGenerationJob } from '@shared/ai/pipeline.ts'
import { GenerateBodySchema } from '@shared/ai/schemas.ts'
import { serveAdminAiFunction } from '@shared/ai/serve.ts'

await serveAdminAiFunction({
  name: 'generate-blog-content',
  failureMessage: 'Content generation failed',
  async handle(raw, { config, ai, userId }) {
    const body = parseBody(GenerateBodySchema, raw)
    const db = serviceClient()

    if (body.topicId) {
      const { data, error } = await db.from('trending_topics').select('id').eq('id', body.topicId).maybeSingle()
      if (error) throw error
      if (!data) return json({ error: 'The selected topic does not exist' }, 404)
    }
    if (body.categoryId) {
      const { data, error } = await db.from('blog_categories').select('id').eq('id', body.categoryId).maybeSingle()
      if (error) throw error
      if (!data) return json({ error: 'The selected category does not exist' }, 400)
    }

    const request_ = {
      topicId: body.topicId ?? null,
      customTopic: body.topicId ? null : (body.customTopic ?? null),
      categoryId: body.categoryId ?? null,
      autoPublish: body.autoPublish,
      userId,
    }
    const jobId = await createGenerationJob(db, request_)
    runInBackground(runGenerationJob({ db, config, ai }, { ...request_, jobId }))
    return json({ jobId, status: 'pending' }, 202)
  },
})
