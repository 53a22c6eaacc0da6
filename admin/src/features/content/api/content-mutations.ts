import { useMutation, useQueryClient } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { generationJobKeys, topicKeys } from './content-keys'
import type { DiscoverBody, GenerateBody } from '@shared/ai/schemas.ts'
import { DiscoverResultSchema, GenerateResultSchema, invokeContentFunction } from './content-functions'

/** Runs topic discovery from a checked request body ({location, count}); resolves to the number of new topics. */
export function useDiscoverTopicsMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: DiscoverBody) =>
      DiscoverResultSchema.parse(await invokeContentFunction('discover-trending-topics', body)).topicsDiscovered,
    onSettled: () => queryClient.invalidateQueries({ queryKey: topicKeys.all }),
  })
}

/** Approves or rejects a topic. */
export function useSetTopicStatusMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: 'approved' | 'rejected' }) => {
      const data = await dataOrThrow(
        supabase.from('trending_topics').update({ status }).eq('id', id).select('id').maybeSingle(),
      )
      if (!data) throw new Error('The topic no longer exists or you may not change it.')
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: topicKeys.all }),
  })
}

/** Starts a generation job from a checked request body; resolves to its id (the job list then follows it). */
export function useGenerateContentMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: GenerateBody) =>
      GenerateResultSchema.parse(await invokeContentFunction('generate-blog-content', body)).jobId,
    onSettled: () => queryClient.invalidateQueries({ queryKey: generationJobKeys.all }),
  })
}
