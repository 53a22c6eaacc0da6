import { useMutation, useQueryClient } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { generationJobKeys, topicKeys } from './content-keys'
import { DiscoverResultSchema, GenerateResultSchema, invokeContentFunction } from './content-functions'

/** Runs topic discovery for a location ('general' when empty); resolves to the number of new topics. */
export function useDiscoverTopicsMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (location: string) => {
      const result = DiscoverResultSchema.parse(
        await invokeContentFunction('discover-trending-topics', { location: location.trim() || 'general' }),
      )
      return result.topicsDiscovered
    },
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

export interface GenerateInput {
  topicId: string | null
  customTopic: string
  categoryId: string | null
  autoPublish: boolean
}

/** Starts a generation job; resolves to its id (the job list then follows it). */
export function useGenerateContentMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: GenerateInput) => {
      const body = {
        ...(input.topicId ? { topicId: input.topicId } : { customTopic: input.customTopic.trim() }),
        categoryId: input.categoryId,
        autoPublish: input.autoPublish,
      }
      return GenerateResultSchema.parse(await invokeContentFunction('generate-blog-content', body)).jobId
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: generationJobKeys.all }),
  })
}
