import { z } from 'zod'
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '@shared/slug.ts'

export const PostStatusFilterSchema = z.enum(['all', 'draft', 'published'])
export type PostStatusFilter = z.infer<typeof PostStatusFilterSchema>

export type PostFilters = {
  /** Case-insensitive substring of the title or the excerpt; '' for no search. */
  search: string
  status: PostStatusFilter
}

/** The tabs of /admin/blog, in display order. */
export const BLOG_TABS = ['posts', 'topics', 'generation', 'calendar'] as const

/**
 * The blog page's URL state (validated by the /blog route): `tab`, the list's search `q` and `status` filter (kept
 * while editing, so Save returns to the same list), `?edit=<uuid>` edits a post, `?new=1` writes a new one.
 * Anything unreadable falls back to the default rather than failing the page.
 */
export const BLOG_SEARCH_DEFAULTS = { tab: 'posts', q: '', status: 'all' } as const

export const BlogSearchSchema = z.object({
  tab: z.enum(BLOG_TABS).default('posts').catch('posts'),
  q: z.string().max(200).default('').catch(''),
  status: PostStatusFilterSchema.default('all').catch('all'),
  edit: z.uuid().optional().catch(undefined),
  new: z.literal('1').optional().catch(undefined),
})
export type BlogSearch = z.infer<typeof BlogSearchSchema>

/** Where a post stands for readers: a draft, scheduled (published with a future date) or published (live). */
export type PostState = 'draft' | 'scheduled' | 'published'

/** The public RLS rule: a post is live when its status is published and published_at has passed. */
export function postState(post: { status: string; published_at: string | null }, now: Date = new Date()): PostState {
  if (post.status !== 'published') return 'draft'
  return post.published_at && Date.parse(post.published_at) > now.getTime() ? 'scheduled' : 'published'
}

/** Whether a Publish date field value ('' or local 'yyyy-MM-ddTHH:mm') lies after `now`: publishing then schedules. */
export function schedulesPost(publishAt: string, now: Date = new Date()): boolean {
  return publishAt !== '' && new Date(publishAt).getTime() > now.getTime()
}

/** SEO limits: search results cut titles at 60 characters and meta descriptions at 160. */
export const META_TITLE_MAX = 60
export const META_DESCRIPTION_MAX = 160

/** The editor's fields as the form holds them (all strings, as typed). */
export type PostFormValues = {
  title: string
  slug: string
  content: string
  excerpt: string
  category_id: string
  location: string
  featured_image_url: string
  meta_title: string
  meta_description: string
  /** One insight per line. */
  insights: string
  /** '' or a number 0-10 as typed. */
  hack_density_score: string
  /** '' (publish now) or a local date-time 'yyyy-MM-ddTHH:mm' from the Publish date field; a future one schedules. */
  publish_at: string
}

/** What a datetime-local input gives: 'yyyy-MM-ddTHH:mm' (seconds optional), local time. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? null : value))

/**
 * Turns the editor's fields into the blog_posts columns they fill, or fails with a message naming the field.
 * Required fields (which depend on draft vs publish) are checked by `missingRequiredFields` first.
 */
export const PostFormSchema = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, { error: 'Title is required.' })
      .max(300, { error: 'Title must be at most 300 characters.' }),
    slug: z
      .string()
      .trim()
      .min(1, { error: 'Slug is required.' })
      .max(SLUG_MAX_LENGTH, { error: `Slug must be at most ${SLUG_MAX_LENGTH} characters.` })
      .regex(SLUG_PATTERN, { error: 'Slug may only contain lowercase letters, digits and single hyphens.' }),
    content: z.string(),
    excerpt: optionalText,
    category_id: z.union([z.literal('').transform(() => null), z.uuid({ error: 'Choose a category from the list.' })]),
    location: optionalText,
    featured_image_url: z.union([
      z.literal('').transform(() => null),
      z.url({ protocol: /^https?$/, error: 'Featured image URL must be an http(s) URL.' }),
    ]),
    meta_title: optionalText.pipe(
      z
        .string()
        .max(META_TITLE_MAX, { error: `SEO title must be at most ${META_TITLE_MAX} characters.` })
        .nullable(),
    ),
    meta_description: optionalText.pipe(
      z
        .string()
        .max(META_DESCRIPTION_MAX, { error: `Meta description must be at most ${META_DESCRIPTION_MAX} characters.` })
        .nullable(),
    ),
    insights: z.string().transform((value) =>
      value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
    hack_density_score: z.union([
      z.literal('').transform(() => null),
      z.string().pipe(
        z.coerce
          .number<string>({ error: 'Hack density score must be a number from 0 to 10.' })
          .min(0, { error: 'Hack density score must be a number from 0 to 10.' })
          .max(10, { error: 'Hack density score must be a number from 0 to 10.' })
          .transform((value) => Math.round(value * 10) / 10),
      ),
    ]),
    publish_at: z
      .string()
      .refine((value) => value === '' || LOCAL_DATE_TIME.test(value), {
        error: 'Publish date must be a date and time.',
      })
      .transform((value) => (value === '' ? null : new Date(value).toISOString())),
  })
  .transform(({ insights, publish_at, ...rest }) => ({
    fields: { ...rest, insights, unique_insights: insights.length },
    publishAt: publish_at,
  }))

export type PostFormOutput = z.output<typeof PostFormSchema>

/**
 * Labels of the fields that must be filled before saving (spec, Validation rules): a draft needs a title and
 * content; publishing also needs the excerpt (it makes the listing card). Content counts as empty when its HTML
 * holds no text and no image (the rich editor writes '<p></p>' for an empty document).
 */
export function missingRequiredFields(values: PostFormValues, intent: 'draft' | 'publish'): string[] {
  const missing: string[] = []
  if (!values.title.trim()) missing.push('Title')
  if (!hasContent(values.content)) missing.push('Content')
  if (intent === 'publish' && !values.excerpt.trim()) missing.push('Excerpt')
  return missing
}

/** Whether post HTML has visible text or an image. */
export function hasContent(html: string): boolean {
  if (/<img\b/i.test(html)) return true
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '').length > 0
}

/** The toast text for missing required fields: the seed's wording for a draft and for publishing. */
export function missingFieldsMessage(intent: 'draft' | 'publish'): string {
  return intent === 'draft'
    ? 'Please fill in title and content'
    : 'Please fill in title, content, and excerpt before publishing'
}

/** The editor's values for a new post: every field empty. */
export const EMPTY_POST_FORM: PostFormValues = {
  title: '',
  slug: '',
  content: '',
  excerpt: '',
  category_id: '',
  location: '',
  featured_image_url: '',
  meta_title: '',
  meta_description: '',
  insights: '',
  hack_density_score: '',
  publish_at: '',
}
