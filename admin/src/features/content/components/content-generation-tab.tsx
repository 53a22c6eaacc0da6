import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { format } from 'date-fns'
import { useEffect, useRef, useState } from 'react'
import type { z } from 'zod'
import { useForm, useWatch } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Skeleton } from '@/components/ui/skeleton'
import { Select, Textarea } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { postKeys } from '@/features/blog/api/blog-keys'
import { BlogCategorySelect } from '@/features/blog/components/blog-category-select'
import { topicKeys } from '../api/content-keys'
import { useGenerateContentMutation } from '../api/content-mutations'
import type { GenerationJob } from '../api/content-queries'
import { ACTIVE_JOB_STATUSES, generationJobQueries, topicQueries } from '../api/content-queries'
import type { GenerateFormValues } from '../api/content-schemas'
import { EMPTY_GENERATE_FORM, GenerateFormSchema } from '../api/content-schemas'
import { ContentJobQuality } from './content-job-quality'
import { ContentProviderNote } from './content-provider-note'

function JobStatus({ job }: { job: GenerationJob }) {
  if (job.status === 'failed') {
    return (
      <div>
        <Badge variant="danger">Failed</Badge>
        <p className="mt-1 text-xs text-red-700">Error: {job.error_message ?? 'unknown error'}</p>
      </div>
    )
  }
  if (job.status === 'completed') return <Badge variant="success">Completed</Badge>
  if (job.status === 'generating') {
    return (
      <div className="flex items-center gap-2">
        <Badge variant="warning">Generating</Badge>
        <progress aria-label="Generating article" className="h-2 w-24" />
      </div>
    )
  }
  return <Badge variant="warning">Pending</Badge>
}

/**
 * The Content Generation tab: start a job from an approved or custom topic (react-hook-form, checked by the function's
 * own request schema) and follow the 20 latest jobs.
 */
export function ContentGenerationTab() {
  const form = useForm<GenerateFormValues, unknown, z.output<typeof GenerateFormSchema>>({
    resolver: zodResolver(GenerateFormSchema),
    defaultValues: EMPTY_GENERATE_FORM,
  })
  const [topicId, customTopic] = useWatch({ control: form.control, name: ['topicId', 'customTopic'] })
  /** Jobs started from this screen that still need their completion toast. */
  const watched = useRef(new Set<string>())
  const [watchCount, setWatchCount] = useState(0)

  const approved = useQuery(topicQueries.approved())
  const jobs = useQuery(generationJobQueries.recent())
  const generate = useGenerateContentMutation()
  const queryClient = useQueryClient()
  const { toast } = useToast()

  useEffect(() => {
    if (!jobs.data) return
    for (const job of jobs.data) {
      if (!watched.current.has(job.id) || ACTIVE_JOB_STATUSES.includes(job.status)) continue
      watched.current.delete(job.id)
      setWatchCount(watched.current.size)
      if (job.status === 'completed') {
        const published = job.blog_posts?.status === 'published'
        toast({
          title: 'Content Generated Successfully!',
          description: `${job.blog_posts?.title ?? 'Your article'} — Status: ${published ? 'Published' : 'Draft'}`,
        })
        void queryClient.invalidateQueries({ queryKey: postKeys.all })
        void queryClient.invalidateQueries({ queryKey: topicKeys.all })
      } else {
        toast({
          title: 'Generation Failed',
          description: job.error_message?.trim() || 'Failed to generate content',
          variant: 'error',
        })
      }
    }
  }, [jobs.data, queryClient, toast])

  const busy = generate.isPending || watchCount > 0
  const empty = topicId === '' && customTopic.trim() === ''

  const onGenerate = (body: z.output<typeof GenerateFormSchema>) =>
    generate.mutate(body, {
      onSuccess: (jobId) => {
        watched.current.add(jobId)
        setWatchCount(watched.current.size)
        form.reset({ ...form.getValues(), topicId: '', customTopic: '' })
      },
      onError: (error) =>
        toast({
          title: 'Generation Failed',
          description: error.message.trim() || 'Failed to generate content',
          variant: 'error',
        }),
    })
  const customTopicError = form.formState.errors.customTopic?.message

  return (
    <div className="space-y-6">
      <form
        onSubmit={(event) => void form.handleSubmit(onGenerate)(event)}
        noValidate
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-4"
      >
        <div className="space-y-1">
          <Label htmlFor="generation-topic">Approved topic</Label>
          <Select id="generation-topic" {...form.register('topicId')}>
            <option value="">Select an approved topic…</option>
            {approved.data?.map((topic) => (
              <option key={topic.id} value={topic.id}>
                {topic.topic}
              </option>
            ))}
          </Select>
          {approved.isSuccess && approved.data.length === 0 && (
            <p className="text-xs text-slate-500">No approved topics yet: approve some in Trending Topics.</p>
          )}
        </div>
        <div className="space-y-1">
          <Label htmlFor="generation-custom-topic">Or a custom topic</Label>
          <Textarea
            id="generation-custom-topic"
            rows={3}
            maxLength={2000}
            placeholder="e.g. What sellers in 78704 should know about pricing"
            aria-invalid={customTopicError ? true : undefined}
            aria-describedby={customTopicError ? 'generation-custom-topic-error' : undefined}
            {...form.register('customTopic')}
          />
          <p className="text-xs text-slate-500">A selected topic is used instead of the custom one.</p>
          {customTopicError && (
            <p id="generation-custom-topic-error" className="text-xs font-medium text-red-700">
              {customTopicError}
            </p>
          )}
        </div>
        <div className="space-y-1">
          <Label htmlFor="generation-category">Category (optional)</Label>
          <BlogCategorySelect id="generation-category" {...form.register('categoryId')} />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" {...form.register('autoPublish')} />
          Publish automatically when generated
        </label>
        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit" disabled={empty || busy}>
            {busy ? 'Generating Content...' : 'Generate Content'}
          </Button>
          <ContentProviderNote />
        </div>
      </form>

      <section aria-labelledby="generation-jobs-heading">
        <h2 id="generation-jobs-heading" className="text-lg font-semibold">
          Recent jobs
        </h2>
        {jobs.isError && <Alert className="mt-2">Could not load jobs: {jobs.error.message}</Alert>}
        {jobs.isPending && <Skeleton className="mt-2 h-16 w-full" />}
        {jobs.isSuccess && jobs.data.length === 0 && (
          <p className="mt-2 text-sm text-slate-500">No generation jobs yet.</p>
        )}
        {jobs.isSuccess && jobs.data.length > 0 && (
          <ul
            className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white"
            aria-label="Generation jobs"
          >
            {jobs.data.map((job) => (
              <li
                key={job.id}
                className="flex flex-wrap items-start justify-between gap-3 px-4 py-3"
                data-testid="generation-job"
              >
                <div className="min-w-0 flex-1">
                  {job.blog_post_id && job.blog_posts ? (
                    <Link
                      to="/blog"
                      search={{ edit: job.blog_post_id }}
                      className="font-medium text-blue-700 hover:underline"
                    >
                      {job.blog_posts.title}
                    </Link>
                  ) : (
                    <p className="font-medium text-slate-900">
                      {job.trending_topics?.topic ?? job.custom_topic ?? 'Untitled job'}
                    </p>
                  )}
                  <p className="text-xs text-slate-500">
                    Started {format(new Date(job.created_at), 'MMM d, yyyy HH:mm')}
                  </p>
                  <ContentJobQuality job={job} />
                </div>
                <JobStatus job={job} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
