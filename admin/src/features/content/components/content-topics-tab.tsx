import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { format } from 'date-fns'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { useToast } from '@/components/ui/toast'
import { useDiscoverTopicsMutation, useSetTopicStatusMutation } from '../api/content-mutations'
import type { TopicListItem } from '../api/content-queries'
import { topicQueries } from '../api/content-queries'
import { DiscoverBodySchema } from '@shared/ai/schemas.ts'
import { ContentProviderNote } from './content-provider-note'

const KNOWN_STATUSES = ['pending', 'approved', 'rejected', 'generated'] as const
type TopicStatus = (typeof KNOWN_STATUSES)[number]

/** A status the UI does not know (or null) reads as pending, so the topic can still be reviewed. */
export function topicStatus(status: string | null): TopicStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(status ?? '') ? (status as TopicStatus) : 'pending'
}

/** Priority label from the 0-100 score: High >= 70, Medium >= 40, else Low. */
export function priorityLabel(score: number | null): 'High' | 'Medium' | 'Low' {
  const value = score ?? 0
  if (value >= 70) return 'High'
  if (value >= 40) return 'Medium'
  return 'Low'
}

const statusBadge: Record<TopicStatus, 'default' | 'success' | 'warning'> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'default',
  generated: 'success',
}

function TopicCard({ topic }: { topic: TopicListItem }) {
  const { toast } = useToast()
  const setStatus = useSetTopicStatusMutation()
  const status = topicStatus(topic.status)
  const decide = (next: 'approved' | 'rejected') =>
    setStatus.mutate(
      { id: topic.id, status: next },
      {
        onSuccess: () =>
          toast({ title: next === 'approved' ? 'Topic Approved' : 'Topic Rejected', description: topic.topic }),
        onError: (error) =>
          toast({
            title: 'Update Failed',
            description: error.message.trim() || 'Failed to update topic',
            variant: 'error',
          }),
      },
    )
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" aria-label={topic.topic}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="font-medium text-slate-900">{topic.topic}</p>
          <p className="mt-1 text-xs text-slate-500">
            {topic.location ?? 'general'} · {topic.hack_type ?? 'general'} · found{' '}
            {format(new Date(topic.created_at), 'MMM d, yyyy')}
          </p>
          {topic.consumer_benefit && <p className="mt-2 text-sm text-slate-600">{topic.consumer_benefit}</p>}
          {topic.suggested_cta && <p className="mt-1 text-xs text-slate-500">CTA: {topic.suggested_cta}</p>}
        </div>
        <Badge variant={statusBadge[status]} className="capitalize">
          {status}
        </Badge>
      </div>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
        <div className="flex gap-1">
          <dt>Priority:</dt>
          <dd className="font-medium text-slate-900">{priorityLabel(topic.priority_score)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Search volume:</dt>
          <dd className="font-medium text-slate-900">{topic.search_volume_estimate ?? 0}/100</dd>
        </div>
        <div className="flex gap-1">
          <dt>Priority score:</dt>
          <dd className="font-medium text-slate-900">{topic.priority_score ?? 0}/100</dd>
        </div>
        <div className="flex gap-1">
          <dt>Competition:</dt>
          <dd className="font-medium text-slate-900">{topic.competition_level ?? '—'}</dd>
        </div>
      </dl>
      {status === 'pending' && (
        <div className="mt-3 flex gap-2">
          <Button
            size="sm"
            disabled={setStatus.isPending}
            onClick={() => decide('approved')}
            aria-label={`Approve: ${topic.topic}`}
          >
            Approve
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={setStatus.isPending}
            onClick={() => decide('rejected')}
            aria-label={`Reject: ${topic.topic}`}
          >
            Reject
          </Button>
        </div>
      )}
    </li>
  )
}

/**
 * The Trending Topics tab: discover topics for a location (react-hook-form, checked by the function's own request
 * schema: empty means 'general'), then approve or reject them.
 */
export function ContentTopicsTab() {
  const form = useForm<z.input<typeof DiscoverBodySchema>, unknown, z.output<typeof DiscoverBodySchema>>({
    resolver: zodResolver(DiscoverBodySchema),
    defaultValues: { location: '' },
  })
  const topics = useQuery(topicQueries.list())
  const discover = useDiscoverTopicsMutation()
  const { toast } = useToast()
  const locationError = form.formState.errors.location?.message

  const onDiscover = form.handleSubmit((body) =>
    discover.mutate(body, {
      onSuccess: (count) => toast({ title: 'Topics Discovered', description: `Found ${count} new trending topics` }),
      onError: (error) =>
        toast({
          title: 'Discovery Failed',
          description: error.message.trim() || 'Failed to discover topics',
          variant: 'error',
        }),
    }),
  )

  return (
    <div className="space-y-4">
      <form
        onSubmit={onDiscover}
        noValidate
        className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-end"
      >
        <div className="flex-1 space-y-1">
          <Label htmlFor="discover-location">Location</Label>
          <Input
            id="discover-location"
            placeholder="e.g. Austin, TX or 78704 (empty for general)"
            maxLength={100}
            aria-invalid={locationError ? true : undefined}
            {...form.register('location')}
          />
          {locationError && <p className="text-xs font-medium text-red-700">{locationError}</p>}
        </div>
        <Button type="submit" disabled={discover.isPending}>
          {discover.isPending ? 'Discovering...' : 'Discover Topics'}
        </Button>
      </form>
      <ContentProviderNote />

      {topics.isError && <Alert>Could not load topics: {topics.error.message}</Alert>}
      {topics.isPending && <Skeleton className="h-24 w-full" />}
      {topics.isSuccess && topics.data.length === 0 && (
        <p className="rounded-xl border border-slate-200 bg-white px-4 py-12 text-center text-slate-500">
          No topics yet. Discover topics from site searches and market data.
        </p>
      )}
      {topics.isSuccess && topics.data.length > 0 && (
        <ul className="space-y-3" aria-label="Trending topics">
          {topics.data.map((topic) => (
            <TopicCard key={topic.id} topic={topic} />
          ))}
        </ul>
      )}
    </div>
  )
}
