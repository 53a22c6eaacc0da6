import { useQuery } from '@tanstack/react-query'
import { getRouteApi, useBlocker } from '@tanstack/react-router'
import { format } from 'date-fns'
import { lazy, Suspense, useId, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/ui/label'
import { Sheet, SheetClose } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { Textarea } from '@/components/ui/textarea'
import { useToast } from '@/components/ui/toast'
import { useMediaQuery } from '@/hooks/use-media-query'
import { useSavePostMutation } from '../api/blog-mutations'
import type { PostDetail, RevisionSnapshot } from '../api/blog-queries'
import { postQueries } from '../api/blog-queries'
import type { PostFormValues } from '../api/blog-schemas'
import {
  EMPTY_POST_FORM,
  META_DESCRIPTION_MAX,
  META_TITLE_MAX,
  missingFieldsMessage,
  missingRequiredFields,
  postState,
  PostFormSchema,
  schedulesPost,
} from '../api/blog-schemas'
import { BlogCategorySelect } from './blog-category-select'
import { BlogPostImageUpload } from './blog-post-image-upload'
import { BlogPostRevisions } from './blog-post-revisions'
import { BlogPostStatusBadge } from './blog-post-status-badge'
import { SearchResultPreview } from './search-result-preview'
import { slugify } from '@shared/slug.ts'
import { postUrl } from '@shared/urls.ts'

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

function PostForm({ post }: { post?: PostDetail }) {
  const [initial] = useState(() => (post ? toFormValues(post) : EMPTY_POST_FORM))
  const [values, setValues] = useState(initial)
  // New posts derive the slug from the title until the slug is edited; SEO titles follow the title until edited.
  const [slugEdited, setSlugEdited] = useState(Boolean(post))
  const [metaTitleEdited, setMetaTitleEdited] = useState(Boolean(post?.meta_title))
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const sidePanel = useMediaQuery(SIDE_PANEL_QUERY)
  const save = useSavePostMutation()
  const { toast } = useToast()
  const id = useId()
  const backToList = useBackToList()

  const isPublished = post?.status === 'published'
  const isLive = post ? postState(post) === 'published' : false
  const dirty = JSON.stringify(values) !== JSON.stringify(initial)
  // a future Publish date schedules the post instead of publishing it now
  const scheduling = schedulesPost(values.publish_at)
  const slugMoved = isLive && post !== undefined && values.slug.trim() !== post.slug

  // Sidebar links, Back/Forward inside the admin, reloads and tab closes ask while there is unsaved work.
  useBlocker({
    shouldBlockFn: () => !window.confirm(LEAVE_QUESTION),
    enableBeforeUnload: dirty,
    disabled: !dirty,
  })

  function set<K extends keyof PostFormValues>(key: K, value: PostFormValues[K]) {
    setValues((current) => ({ ...current, [key]: value }))
  }

  function setTitle(title: string) {
    setValues((current) => ({
      ...current,
      title,
      slug: slugEdited ? current.slug : slugify(title),
      meta_title: metaTitleEdited ? current.meta_title : title.slice(0, META_TITLE_MAX),
    }))
  }

  function submit(intent: 'draft' | 'publish') {
    if (missingRequiredFields(values, intent).length > 0) {
      toast({ title: 'Missing Required Fields', description: missingFieldsMessage(intent), variant: 'error' })
      return
    }
    const parsed = PostFormSchema.safeParse(values)
    if (!parsed.success) {
      toast({
        title: 'Error',
        description: parsed.error.issues.map((issue) => issue.message).join(' '),
        variant: 'error',
      })
      return
    }
    const status = intent === 'publish' ? 'published' : 'draft'
    const { fields, publishAt } = parsed.data
    // A date typed in the Publish date field wins (a future one schedules); otherwise updating a published post keeps
    // its date and publishing a draft (or a new post) goes live now.
    const dateEdited = values.publish_at !== initial.publish_at
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
              ? 'Draft Saved'
              : scheduled
                ? 'Post Scheduled'
                : isPublished
                  ? 'Post Updated'
                  : 'Post Published'
          const description = scheduled
            ? `"${fields.title}" goes live on ${format(new Date(publishedAt), 'MMM d, yyyy h:mm a')}.`
            : `"${fields.title}" was saved.`
          toast({ title, description })
          backToList({ force: true })
        },
        onError: (error) => toast({ title: 'Error', description: error.message, variant: 'error' }),
      },
    )
  }

  function cancel() {
    if (dirty) setConfirmCancel(true)
    else backToList()
  }

  const field = (name: string) => `${id}-${name}`

  // The post's settings (address, category, schedule, image, SEO): one set of fields, shown in the side panel on wide
  // screens and in the Settings drawer on narrow ones (never both, so each field exists once).
  const settings = (
    <div className="space-y-5">
      <FormField
        label="Slug"
        htmlFor={field('slug')}
        hint={`Public address: ${values.slug ? postUrl(values.slug) : '/blog/...'}`}
      >
        <Input
          id={field('slug')}
          value={values.slug}
          maxLength={200}
          onChange={(event) => {
            setSlugEdited(true)
            set('slug', event.target.value)
          }}
        />
        {slugMoved && (
          <Alert className="mt-2 border-amber-300 bg-amber-50 text-amber-900">
            This post is live at {postUrl(post?.slug ?? '')}. Saving moves it to{' '}
            {values.slug ? postUrl(values.slug.trim()) : 'a new address'}; the old address will redirect to the new one.
          </Alert>
        )}
      </FormField>
      <div className="grid gap-5">
        <FormField label="Category" htmlFor={field('category')}>
          <BlogCategorySelect
            id={field('category')}
            value={values.category_id}
            onChange={(event) => set('category_id', event.target.value)}
          />
        </FormField>
        <FormField label="Location" htmlFor={field('location')}>
          <Input
            id={field('location')}
            placeholder="Austin, TX"
            value={values.location}
            onChange={(event) => set('location', event.target.value)}
          />
        </FormField>
      </div>

      <FormField label="Featured image URL" htmlFor={field('image')}>
        <Input
          id={field('image')}
          type="url"
          placeholder="https://..."
          value={values.featured_image_url}
          onChange={(event) => set('featured_image_url', event.target.value)}
        />
        <BlogPostImageUpload url={values.featured_image_url} onUploaded={(url) => set('featured_image_url', url)} />
      </FormField>

      <FormField
        label="Publish date"
        htmlFor={field('publish-at')}
        hint={
          scheduling
            ? 'In the future: the post is scheduled and goes live at this time.'
            : 'Leave empty to publish now; a future date schedules the post.'
        }
      >
        <Input
          id={field('publish-at')}
          type="datetime-local"
          value={values.publish_at}
          onChange={(event) => set('publish_at', event.target.value)}
        />
      </FormField>

      <FormField
        label="SEO title"
        htmlFor={field('meta-title')}
        counter={`${values.meta_title.length}/${META_TITLE_MAX}`}
      >
        <Input
          id={field('meta-title')}
          maxLength={META_TITLE_MAX}
          value={values.meta_title}
          onChange={(event) => {
            setMetaTitleEdited(true)
            set('meta_title', event.target.value)
          }}
        />
      </FormField>
      <FormField
        label="Meta description"
        htmlFor={field('meta-description')}
        counter={`${values.meta_description.length}/${META_DESCRIPTION_MAX}`}
      >
        <Textarea
          id={field('meta-description')}
          rows={2}
          maxLength={META_DESCRIPTION_MAX}
          value={values.meta_description}
          onChange={(event) => set('meta_description', event.target.value)}
        />
      </FormField>
      <SearchResultPreview
        slug={values.slug.trim()}
        title={values.meta_title.trim() || values.title.trim()}
        description={values.meta_description.trim() || values.excerpt.trim()}
      />
    </div>
  )

  return (
    <section className="mx-auto max-w-6xl">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight">{post ? 'Edit Post' : 'New Post'}</h1>
        {post && <BlogPostStatusBadge post={post} />}
        {post && isLive && (
          <a
            href={postUrl(post.slug)}
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
          <FormField label="Title" htmlFor={field('title')}>
            <Input
              id={field('title')}
              value={values.title}
              maxLength={300}
              onChange={(event) => setTitle(event.target.value)}
            />
          </FormField>
          <FormField
            label="Content"
            htmlFor={field('content')}
            hint="Callout makes an insight card; HTML edits the markup directly."
          >
            <Suspense fallback={<Skeleton className="h-72 w-full" aria-label="Loading the editor" />}>
              <RichContentEditor
                id={field('content')}
                value={values.content}
                onChange={(html) => set('content', html)}
              />
            </Suspense>
          </FormField>
          <FormField label="Excerpt" htmlFor={field('excerpt')}>
            <Textarea
              id={field('excerpt')}
              rows={3}
              value={values.excerpt}
              onChange={(event) => set('excerpt', event.target.value)}
            />
          </FormField>

          <div className="grid gap-5 sm:grid-cols-[1fr_12rem]">
            <FormField label="Insights" htmlFor={field('insights')} hint="One insight per line.">
              <Textarea
                id={field('insights')}
                rows={4}
                value={values.insights}
                onChange={(event) => set('insights', event.target.value)}
              />
            </FormField>
            <FormField label="Hack density score" htmlFor={field('hack-density')} hint="0 to 10">
              <Input
                id={field('hack-density')}
                type="number"
                min={0}
                max={10}
                step={0.1}
                value={values.hack_density_score}
                onChange={(event) => set('hack_density_score', event.target.value)}
              />
            </FormField>
          </div>

          <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-5">
            <Button variant="outline" onClick={cancel} disabled={save.isPending}>
              Cancel
            </Button>
            {/* A live post has no Save Draft: saving an edit keeps it published (Unpublish in the list takes it down). */}
            {isPublished ? (
              <Button type="submit" disabled={save.isPending}>
                Update Published Post
              </Button>
            ) : (
              <>
                <Button variant="outline" type="submit" disabled={save.isPending}>
                  Save Draft
                </Button>
                <Button onClick={() => submit('publish')} disabled={save.isPending}>
                  {scheduling ? 'Schedule' : 'Publish Now'}
                </Button>
              </>
            )}
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
              setValues((current) => ({ ...current, ...toFormFields(snapshot) }))
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
  )
}
