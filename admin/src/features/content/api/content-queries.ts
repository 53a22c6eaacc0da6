import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { aiProviderKeys, generationJobKeys, topicKeys } from './content-keys'
import { invokeContentFunction, ProviderStatusSchema } from './content-functions'

/** Jobs still running: the list polls while any is. */
export const ACTIVE_JOB_STATUSES = ['pending', 'generating']

/** Milliseconds between job polls while a job runs. */
export const JOB_POLL_MS = 1500

export const topicQueries = {
  /** Newest 100 topics (any status) for the Trending Topics tab, best priority first within a day. */
  list: () =>
    queryOptions({
      queryKey: topicKeys.list('all'),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase
            .from('trending_topics')
            .select(
              'id, topic, location, hack_type, consumer_benefit, suggested_cta, priority_score, search_volume_estimate, competition_level, status, created_at',
            )
            .order('created_at', { ascending: false })
            .order('priority_score', { ascending: false, nullsFirst: false })
            .limit(100)
            .abortSignal(signal),
        ),
    }),

  /** Approved topics, the choices of the Content Generation tab. */
  approved: () =>
    queryOptions({
      queryKey: topicKeys.list('approved'),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase
            .from('trending_topics')
            .select('id, topic, location, priority_score')
            .eq('status', 'approved')
            .order('priority_score', { ascending: false, nullsFirst: false })
            .abortSignal(signal),
        ),
    }),
}

export const generationJobQueries = {
  /** The 20 most recent jobs with their topic and post; polls every JOB_POLL_MS while one is pending or generating. */
  recent: () =>
    queryOptions({
      queryKey: generationJobKeys.recent(),
      queryFn: ({ signal }) =>
        dataOrThrow(
          supabase
            .from('content_generation_jobs')
            .select(
              'id, status, custom_topic, error_message, created_at, generation_started_at, completed_at, blog_post_id, content_mode, word_count, reading_time_minutes, heading_count, figures_checked, unsupported_figures, density_score, target_min_words, target_max_words, trending_topics(topic), blog_posts(title, status)',
            )
            .order('created_at', { ascending: false })
            .limit(20)
            .abortSignal(signal),
        ),
      refetchInterval: (query) =>
        query.state.data?.some((job) => ACTIVE_JOB_STATUSES.includes(job.status)) ? JOB_POLL_MS : false,
    }),
}

export const aiProviderQueries = {
  /** Which writer the functions use ({provider, model, label}); no secrets. */
  status: () =>
    queryOptions({
      queryKey: aiProviderKeys.status(),
      queryFn: async () =>
        ProviderStatusSchema.parse(await invokeContentFunction('generate-blog-content', { action: 'status' })),
      staleTime: 5 * 60_000,
    }),
}

export type TopicListItem = Awaited<ReturnType<NonNullable<ReturnType<typeof topicQueries.list>['queryFn']>>>[number]
export type GenerationJob = Awaited<
  ReturnType<NonNullable<ReturnType<typeof generationJobQueries.recent>['queryFn']>>
>[number]
