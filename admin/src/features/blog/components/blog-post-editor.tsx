import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { getRouteApi, useBlocker } from '@tanstack/react-router'
import { format } from 'date-fns'
import { lazy, Suspense, useId, useState } from 'react'
import type { FieldErrors } from 'react-hook-form'
import { Controller, FormProvider, useForm, useWatch } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Input } from '@/components/ui/input'
import { fieldErrorId, FormField } from '@/components/ui/label'
import { Sheet, SheetClose } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { Textarea } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { useMediaQuery } from '@/hooks/use-media-query'
import { useSavePostMutation } from '../api/blog-mutations'
import type { PostDetail, RevisionSnapshot } from '../api/blog-queries'
import { postQueries } from '../api/blog-queries'
import type { PostFormOutput, PostFormValues } from '../api/blog-schemas'
import {
  EMPTY_POST_FORM,
  META_TITLE_MAX,
  missingFieldsMessage,
  missingRequiredFields,
  postState,
  PostFormSchema,
  schedulesPost,
} from '../api/blog-schemas'
import { BlogPostRevisions } from './blog-post-revisions'
import { BlogPostSettings } from './blog-post-settings'
import { BlogPostStatusBadge } from './blog-post-status-badge'
import { slugify } from '@shared/slug.ts'
import { postUrl } from '@shared/urls.ts'
import { siteLink } from '@/lib/site-link'

const route = getRouteApi('/_shell/blog')

// TipTap (and ProseMirror) is most of the editor's weight: it loads when a post is opened, not with the admin.
const RichContentEditor = lazy(() => import('./rich-content-editor'))

/** From 1024 px the post settings sit in a side panel beside the text; narrower screens open them as a drawer. */
const SIDE_PANEL_QUERY = '(min-width: 1024px)'

const LEAVE_QUESTION = 'You have unsaved changes to this post. Leave without saving?'

/** A timestamp as the Publish date field holds it (local 'yyyy-MM-ddTHH:mm'). */
function toLocalInput(iso: string | null): string {
  return iso ? format(new Date(iso), "yyyy-MM-dd'T'HH:mm") : ''
}

/** Back to the list with its search and filter as they were (they stay in the URL while editing). */
function useBackToList() {
  const navigate = route.useNavigate()
  return (options: { force?: boolean } = {}) =>
    void navigate({ search: ({ edit: _edit, new: _new, ...list }) => list, ignoreBlocker: options.force })
}

/** A post's (or a saved revision's) fields as the form holds them: text everywhere, '' for none. */
function toFormFields(source: RevisionSnapshot): Omit<PostFormValues, 'publish_at'> {
  return {
    title: source.title,
    slug: source.slug,
    content: source.content,
    excerpt: source.excerpt ?? '',
    category_id: source.category_id ?? '',
    location: source.location ?? '',
    featured_image_url: source.featured_image_url ?? '',
    meta_title: source.meta_title ?? '',
    meta_description: source.meta_description ?? '',
    insights: source.insights.join('\n'),
    hack_density_score: source.hack_density_score === null ? '' : String(source.hack_density_score),
  }
}

function toFormValues(post: PostDetail): PostFormValues {
  return { ...toFormFields(post), publish_at: post.status === 'published' ? toLocalInput(post.published_at) : '' }
}

/** The editor for `?edit=<id>` (loads the post first) or a new post. */
export function BlogPostEditor({ postId }: { postId?: string }) {
  if (!postId) return <PostForm />
  return <ExistingPostEditor postId={postId} />
}

function ExistingPostEditor({ postId }: { postId: string }) {
  const post = useQuery(postQueries.detail(postId))
  const backToList = useBackToList()
  if (post.isPending) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-8 w-1/3" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    )
  }
  if (post.isError) {
    return (
      <div className="space-y-4">
        <Alert>Could not load the post: {post.error.message}</Alert>
        <Button variant="outline" onClick={() => backToList()}>
          Back to posts
        </Button>
      </div>
    )
  }
  return <PostForm post={post.data} />
}

type Intent = 'draft' | 'publish'

/**
 * The toast title when a save fails: saving a draft, publishing a draft, or updating a published post (the same
 * titles for a form that does not validate and for a write the database refused).
 */
export function saveFailureTitle(
  intent: Intent,
  isPublished: boolean,
): 'Save Failed' | 'Publish Failed' | 'Update Failed' {
  if (intent === 'draft') return 'Save Failed'
  return isPublished ? 'Update Failed' : 'Publish Failed'
}

const FAILURE_FALLBACK = {
  'Save Failed': 'Failed to save post',
  'Publish Failed': 'Failed to publish post',
  'Update Failed': 'Failed to update post',
} as const

/** Every field message of a form that did not validate, in field order, as one sentence list. */
function errorText(errors: FieldErrors<PostFormValues>): string {
  return Object.values(errors)
    .map((error) => error?.message)
    .filter(Boolean)
    .join(' ')
}

/**
 * The editor's form (react-hook-form with `zodResolver(PostFormSchema)`: the schema checks and converts the fields
 * into the blog_posts columns; dirty state and field errors come from the form). Buttons: Cancel, Save Draft (which
 * also takes a published post back to draft), and Publish Now (Schedule for a future date) or, for a published post,
 * Update Published Post. Enter in a field saves a draft, or updates a published post (never unpublishing it).
 */
function PostForm({ post }: { post?: PostDetail }) {
  const [defaultValues] = useState(() => (post ? toFormValues(post) : EMPTY_POST_FORM))
  const form = useForm<PostFormValues, unknown, PostFormOutput>({
    resolver: zodResolver(PostFormSchema),
    defaultValues,
  })
  const { register, control, formState, getFieldState, setValue, getValues } = form
  const dirty = formState.isDirty
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const sidePanel = useMediaQuery(SIDE_PANEL_QUERY)
  const save = useSavePostMutation()
  const { toast } = useToast()
  const id = useId()
  const backToList = useBackToList()

  const isPublished = post?.status === 'published'
  const isLive = post ? postState(post) === 'published' : false
  // a future Publish date schedules the post instead of publishing it now
  const scheduling = schedulesPost(useWatch({ control, name: 'publish_at' }))

  // Sidebar links, Back/Forward inside the admin, reloads and tab closes ask while there is unsaved work.
  useBlocker({
    shouldBlockFn: () => !window.confirm(LEAVE_QUESTION),
    enableBeforeUnload: dirty,
    disabled: !dirty,
  })

  // New posts derive the slug from the title until the slug is edited; the SEO title follows the title (its first
  // 60 characters) until it is edited, or when the post had none.
  const followTitle = (title: string) => {
    if (!post && !getFieldState('slug').isDirty) setValue('slug', slugify(title))
    if (!post?.meta_title && !getFieldState('meta_title').isDirty)
      setValue('meta_title', title.slice(0, META_TITLE_MAX))
  }

  function submit(intent: Intent) {
    const failure = saveFailureTitle(intent, isPublished)
    if (missingRequiredFields(getValues(), intent).length > 0) {
      toast({ title: 'Missing Required Fields', description: missingFieldsMessage(intent), variant: 'error' })
      return
    }
    void form.handleSubmit(
      (parsed) => write(intent, parsed, failure),
      (errors) => toast({ title: failure, description: errorText(errors), variant: 'error' }),
    )()
  }

  function write(intent: Intent, { fields, publishAt }: PostFormOutput, failure: keyof typeof FAILURE_FALLBACK) {
    const status = intent === 'publish' ? 'published' : 'draft'
    // A date typed in the Publish date field wins (a future one schedules); otherwise updating a published post keeps
    // its date and publishing a draft (or a new post) goes live now.
    const dateEdited = getValues('publish_at') !== defaultValues.publish_at
    const publishedAt =
      intent === 'publish'
        ? dateEdited && publishAt
          ? publishAt
          : isPublished && post?.published_at
            ? post.published_at
            : (publishAt ?? new Date().toISOString())
        : (post?.published_at ?? null)
    const scheduled = intent === 'publish' && publishedAt !== null && Date.parse(publishedAt) > Date.now()
    save.mutate(
      { id: post?.id, values: fields, status, publishedAt, wasLive: isLive },
      {
        onSuccess: () => {
          const title =
            intent === 'draft'
              ? 'Post Saved'
              : scheduled
                ? 'Post Scheduled'
                : isPublished
                  ? 'Post Updated'
                  : 'Post Published'
          const description = scheduled
            ? `"${fields.title}" goes live on ${format(new Date(publishedAt), 'MMM d, yyyy h:mm a')}.`
            : intent === 'draft' && isPublished
              ? `"${fields.title}" was saved as a draft and is no longer on the site.`
              : `"${fields.title}" was saved.`
          toast({ title, description })
          backToList({ force: true })
        },
        onError: (error) =>
          toast({
            title: failure,
            description: error.message.trim() || FAILURE_FALLBACK[failure],
            variant: 'error',
          }),
      },
    )
  }

  function cancel() {
    if (dirty) setConfirmCancel(true)
    else backToList()
  }

  const field = (name: string) => `${id}-${name}`
  const invalid = (name: keyof PostFormValues, fieldId: string) =>
    formState.errors[name] ? { 'aria-invalid': true, 'aria-describedby': fieldErrorId(fieldId) } : {}
  const settings = <BlogPostSettings fieldId={id} liveSlug={isLive ? post?.slug : undefined} />

  return (
    <FormProvider {...form}>
      <section className="mx-auto max-w-6xl">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold tracking-tight">{post ? 'Edit Post' : 'New Post'}</h1>
          {post && <BlogPostStatusBadge post={post} />}
          {post && isLive && (
            <a
              href={siteLink(postUrl(post.slug))}
              target="_blank"
              rel="noopener noreferrer"
              className="text-sm text-blue-700 underline"
            >
              Preview
            </a>
          )}
          {!sidePanel && (
            <Button
              variant="outline"
              className="ml-auto"
              aria-haspopup="dialog"
              aria-expanded={settingsOpen}
              onClick={() => setSettingsOpen(true)}
            >
              Settings
            </Button>
          )}
        </div>

        <form
          className="mt-6 gap-6 lg:grid lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            // Enter in a field of a live post updates it in place; it must never unpublish it.
            submit(isPublished ? 'publish' : 'draft')
          }}
        >
          <div className="min-w-0 space-y-5 rounded-xl border border-slate-200 bg-white p-4 sm:p-6">
            <FormField label="Title" htmlFor={field('title')} error={formState.errors.title?.message}>
              <Input
                id={field('title')}
                maxLength={300}
                {...register('title', { onChange: (event) => followTitle(event.target.value) })}
                {...invalid('title', field('title'))}
              />
            </FormField>
            <FormField
              label="Content"
              htmlFor={field('content')}
              hint="Callout makes an insight card; HTML edits the markup directly."
            >
              <Suspense fallback={<Skeleton className="h-72 w-full" aria-label="Loading the editor" />}>
                <Controller
                  control={control}
                  name="content"
                  render={({ field: { value, onChange } }) => (
                    <RichContentEditor id={field('content')} value={value} onChange={onChange} />
                  )}
                />
              </Suspense>
            </FormField>
            <FormField label="Excerpt" htmlFor={field('excerpt')}>
              <Textarea id={field('excerpt')} rows={3} {...register('excerpt')} />
            </FormField>

            <div className="grid gap-5 sm:grid-cols-[1fr_12rem]">
              <FormField label="Insights" htmlFor={field('insights')} hint="One insight per line.">
                <Textarea id={field('insights')} rows={4} {...register('insights')} />
              </FormField>
              <FormField
                label="Hack density score"
                htmlFor={field('hack-density')}
                hint="0 to 10"
                error={formState.errors.hack_density_score?.message}
              >
                <Input
                  id={field('hack-density')}
                  type="number"
                  min={0}
                  max={10}
                  step={0.1}
                  {...register('hack_density_score')}
                  {...invalid('hack_density_score', field('hack-density'))}
                />
              </FormField>
            </div>

            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-5">
              <Button variant="outline" onClick={cancel} disabled={save.isPending}>
                Cancel
              </Button>
              {/* Save Draft on a published post takes it off the site and keeps the edit as a draft. The button Enter
                  presses (the form's submit button) is Save Draft for a draft and Update Published Post for a live
                  post, so Enter never unpublishes. */}
              <Button
                variant="outline"
                type={isPublished ? 'button' : 'submit'}
                onClick={isPublished ? () => submit('draft') : undefined}
                disabled={save.isPending}
              >
                Save Draft
              </Button>
              <Button
                type={isPublished ? 'submit' : 'button'}
                onClick={isPublished ? undefined : () => submit('publish')}
                disabled={save.isPending}
              >
                {isPublished ? 'Update Published Post' : scheduling ? 'Schedule' : 'Publish Now'}
              </Button>
            </div>
          </div>
          {sidePanel && (
            <aside
              aria-labelledby={field('settings-title')}
              className="sticky top-20 space-y-4 rounded-xl border border-slate-200 bg-white p-5"
            >
              <h2 id={field('settings-title')} className="text-base font-semibold">
                Post settings
              </h2>
              {settings}
            </aside>
          )}
        </form>

        {!sidePanel && (
          <Sheet
            open={settingsOpen}
            onOpenChange={setSettingsOpen}
            side="right"
            title="Post settings"
            header={
              <SheetClose asChild>
                <Button variant="outline" size="sm">
                  Done
                </Button>
              </SheetClose>
            }
            className="w-full max-w-sm overflow-y-auto p-5"
          >
            {settings}
          </Sheet>
        )}

        {post && (
          <div className="mt-6">
            <BlogPostRevisions
              postId={post.id}
              onRestore={(snapshot, savedAt) => {
                for (const [key, value] of Object.entries(toFormFields(snapshot)))
                  setValue(key as keyof PostFormValues, value, { shouldDirty: true })
                toast({
                  title: 'Revision Restored',
                  description: `The version of ${format(new Date(savedAt), 'MMM d, HH:mm:ss')} is in the editor; save to keep it.`,
                })
              }}
            />
          </div>
        )}

        <ConfirmDialog
          open={confirmCancel}
          onOpenChange={setConfirmCancel}
          title="Discard unsaved changes?"
          description="You have changes that have not been saved. They will be lost if you leave the editor."
          confirmLabel="Discard Changes"
          cancelLabel="Keep Editing"
          destructive
          onConfirm={() => {
            setConfirmCancel(false)
            backToList({ force: true })
          }}
        />
      </section>
    </FormProvider>
  )
}
