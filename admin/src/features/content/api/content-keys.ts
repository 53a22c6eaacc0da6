/** Query keys of the AI content pipeline; invalidate through these, never through hand-typed arrays. */
export const topicKeys = {
  all: ['trending-topics'] as const,
  lists: () => [...topicKeys.all, 'list'] as const,
  list: (status: 'all' | 'approved') => [...topicKeys.lists(), status] as const,
}

export const generationJobKeys = {
  all: ['generation-jobs'] as const,
  recent: () => [...generationJobKeys.all, 'recent'] as const,
}

export const aiProviderKeys = {
  all: ['ai-provider'] as const,
  status: () => [...aiProviderKeys.all, 'status'] as const,
}
