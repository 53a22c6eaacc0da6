/**
 * Zod schemas of what a model must return (structured output through the AI SDK), plus the request bodies of the
 * two content functions. Limits are generous where a model is verbose and strict where the database is
 * (trending_topics.topic <= 500, competition_level enum).
 */
import { z } from 'zod'

/** One topic idea from the model; scores are computed from the signals it cites, never taken from the model. */
export const TopicIdeaSchema = z.object({
  topic: z
    .string()
    .min(10)
    .max(300)
    .describe('Headline-style topic naming the real ZIP or city and a figure from the signal'),
  signal_id: z.string().min(1).describe('The id of the signal this topic is built on (exactly one from the list)'),
  hack_type: z.string().min(2).max(60).describe('Kind of advice, e.g. pricing, negotiation, timing, agent-selection'),
  consumer_benefit: z.string().min(10).max(400).describe('What a buyer or seller gains by reading it'),
  suggested_cta: z.string().min(5).max(200).describe('Call to action, e.g. "Compare top agents in 78704"'),
})
export type TopicIdea = z.infer<typeof TopicIdeaSchema>

export const TopicIdeasSchema = z.object({ topics: z.array(TopicIdeaSchema).min(1).max(50) })
export type TopicIdeas = z.infer<typeof TopicIdeasSchema>

export const ArticleOutlineSchema = z.object({
  title: z.string().min(10).max(200),
  sections: z
    .array(
      z.object({ heading: z.string().min(3).max(150), key_points: z.array(z.string().min(3).max(400)).min(1).max(8) }),
    )
    .min(4)
    .max(12),
})
export type ArticleOutline = z.infer<typeof ArticleOutlineSchema>

export const ArticleSchema = z.object({
  title: z.string().min(10).max(200),
  excerpt: z.string().min(20).max(400),
  meta_title: z.string().min(10).max(120),
  meta_description: z.string().min(20).max(300),
  sections: z
    .array(
      z.object({
        heading: z.string().min(3).max(150),
        html: z
          .string()
          .min(20)
          .describe('Section body as HTML: <p>, <ul>/<ol>/<li>, <strong>, <em>, <table>; no headings above h3'),
      }),
    )
    .min(3)
    .max(15),
  insights: z
    .array(z.string().min(10).max(400))
    .min(3)
    .max(10)
    .describe('Distinct, data-backed takeaways, one sentence each'),
})
export type Article = z.infer<typeof ArticleSchema>

/** discover-trending-topics body. */
export const DiscoverBodySchema = z
  .object({
    action: z.literal('discover').optional(),
    location: z
      .string()
      .trim()
      .max(100, 'location must be at most 100 characters')
      .optional()
      .transform((value) => (value ? value : 'general')),
    count: z.coerce
      .number({ message: 'count must be a number' })
      .int('count must be a whole number')
      .min(1, 'count must be between 1 and 50')
      .max(50, 'count must be between 1 and 50')
      .optional()
      .default(10),
  })
  .strict()
export type DiscoverBody = z.infer<typeof DiscoverBodySchema>

export const NO_TOPIC_MESSAGE = 'Please select a topic or enter a custom topic'

/** generate-blog-content body; a chosen topic wins over a custom one. */
export const GenerateBodySchema = z
  .object({
    action: z.literal('generate').optional(),
    topicId: z.uuid('topicId must be a UUID').nullish(),
    customTopic: z.string().trim().max(2000, 'customTopic must be at most 2000 characters').nullish(),
    categoryId: z.uuid('categoryId must be a UUID').nullish(),
    autoPublish: z.boolean({ message: 'autoPublish must be true or false' }).optional().default(false),
  })
  .strict()
  .refine((body) => Boolean(body.topicId) || Boolean(body.customTopic), { message: NO_TOPIC_MESSAGE })
export type GenerateBody = z.infer<typeof GenerateBodySchema>
