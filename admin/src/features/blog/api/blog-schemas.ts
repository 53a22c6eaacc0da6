import { z } from 'zod'
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '@shared/slug.ts'

export const PostStatusFilterSchema = z.enum(['all', 'draft', 'published'])
export type PostStatusFilter = z.infer<typeof PostStatusFilterSchema>

export type PostFilters = {
  /** Case-insensitive substring of the title; '' for no search. */
  search: string
  status: PostStatusFilter
}

/** The blog page's URL state: `?edit=<uuid>` edits a post, `?new=1` writes a new one, neither lists posts. */
export const BlogSearchParamsSchema = z.object({
  edit: z.uuid().optional().catch(undefined),
  new: z.literal('1').optional().catch(undefined),
})

/** SEO limits (spec): titles are cut at 60 characters and meta descriptions at 160 in search results. */
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
}

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
    title: z.string().trim().min(1, { error: 'Title is required.' }).max(300, { error: 'Title must be at most 300 characters.' }),
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
    meta_title: optionalText.pipe(z.string().max(META_TITLE_MAX, { error: `SEO title must be at most ${META_TITLE_MAX} characters.` }).nullable()),
    meta_description: optionalText.pipe(
      z.string().max(META_DESCRIPTION_MAX, { error: `Meta description must be at most ${META_DESCRIPTION_MAX} characters.` }).nullable(),
    ),
    insights: z.string().transform((value) =>
      value
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
    hack_density_score: z.union([
      z.literal('').transform(() => null),
      z.coerce
        .number({ error: 'Hack density score must be a number from 0 to 10.' })
        .min(0, { error: 'Hack density score must be a number from 0 to 10.' })
        .max(10, { error: 'Hack density score must be a number from 0 to 10.' })
        .transform((value) => Math.round(value * 10) / 10),
    ]),
  })
  .transform(({ insights, ...rest }) => ({ ...rest, insights, unique_insights: insights.length }))

export type PostFormOutput = z.output<typeof PostFormSchema>

/**
 * Labels of the fields that must be filled before saving: a draft needs a title; publishing also needs the
 * content and the excerpt (they make the article page and its listing card).
 */
export function missingRequiredFields(values: PostFormValues, intent: 'draft' | 'publish'): string[] {
  const missing: string[] = []
  if (!values.title.trim()) missing.push('Title')
  if (intent === 'publish') {
    if (!values.content.trim()) missing.push('Content')
    if (!values.excerpt.trim()) missing.push('Excerpt')
  }
  return missing
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
}
