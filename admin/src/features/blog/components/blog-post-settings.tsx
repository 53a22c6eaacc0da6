import { useFormContext, useWatch } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { fieldErrorId, FormField } from '@/components/ui/label'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { postUrl } from '@shared/urls.ts'
import type { PostFormOutput, PostFormValues } from '../api/blog-schemas'
import { META_DESCRIPTION_MAX, META_TITLE_MAX, schedulesPost } from '../api/blog-schemas'
import { BlogCategorySelect } from './blog-category-select'
import { BlogPostImageUpload } from './blog-post-image-upload'
import { SearchResultPreview } from './search-result-preview'

/** A length counter as the SEO fields show it: '42/60 characters'. */
export function characterCount(text: string, max: number): string {
  return `${text.length}/${max} characters`
}

type BlogPostSettingsProps = {
  /** Makes the fields' ids unique on the page (`${fieldId}-slug`, ...). */
  fieldId: string
  /** The address the post is live at now, when it is live: changing the slug then warns that it moves. */
  liveSlug?: string
}

/**
 * A post's settings (address, category, location, image, schedule, SEO), read from and written to the editor's form
 * (react-hook-form context). One set of fields: the editor shows it in a side panel on wide screens and in the
 * Settings drawer on narrow ones, never both.
 */
export function BlogPostSettings({ fieldId, liveSlug }: BlogPostSettingsProps) {
  const { register, control, setValue, formState } = useFormContext<PostFormValues, unknown, PostFormOutput>()
  const [slug, featuredImageUrl, publishAt, metaTitle, metaDescription, title, excerpt] = useWatch({
    control,
    name: ['slug', 'featured_image_url', 'publish_at', 'meta_title', 'meta_description', 'title', 'excerpt'],
  })
  const field = (name: string) => `${fieldId}-${name}`
  const errors = formState.errors
  const invalid = (name: keyof PostFormValues, id: string) =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': fieldErrorId(id) } : {}
  const slugMoved = liveSlug !== undefined && slug.trim() !== liveSlug

  return (
    <div className="space-y-5">
      <FormField
        label="Slug"
        htmlFor={field('slug')}
        hint={`Public address: ${slug ? postUrl(slug) : '/blog/...'}`}
        error={errors.slug?.message}
      >
        <Input id={field('slug')} maxLength={200} {...register('slug')} {...invalid('slug', field('slug'))} />
        {slugMoved && (
          <Alert variant="warning" className="mt-2">
            This post is live at {postUrl(liveSlug)}. Saving moves it to {slug ? postUrl(slug.trim()) : 'a new address'}
            ; the old address will redirect to the new one.
          </Alert>
        )}
      </FormField>
      <FormField label="Category" htmlFor={field('category')} error={errors.category_id?.message}>
        <BlogCategorySelect id={field('category')} {...register('category_id')} />
      </FormField>
      <FormField label="Location" htmlFor={field('location')}>
        <Input id={field('location')} placeholder="Austin, TX" {...register('location')} />
      </FormField>

      <FormField label="Featured image URL" htmlFor={field('image')} error={errors.featured_image_url?.message}>
        <Input
          id={field('image')}
          type="url"
          placeholder="https://..."
          {...register('featured_image_url')}
          {...invalid('featured_image_url', field('image'))}
        />
        <BlogPostImageUpload
          url={featuredImageUrl}
          onUploaded={(url) => setValue('featured_image_url', url, { shouldDirty: true, shouldValidate: true })}
        />
      </FormField>

      <FormField
        label="Publish date"
        htmlFor={field('publish-at')}
        hint={
          schedulesPost(publishAt)
            ? 'In the future: the post is scheduled and goes live at this time.'
            : 'Leave empty to publish now; a future date schedules the post.'
        }
        error={errors.publish_at?.message}
      >
        <Input id={field('publish-at')} type="datetime-local" {...register('publish_at')} />
      </FormField>

      <FormField
        label="SEO title"
        htmlFor={field('meta-title')}
        counter={characterCount(metaTitle, META_TITLE_MAX)}
        error={errors.meta_title?.message}
      >
        <Input id={field('meta-title')} maxLength={META_TITLE_MAX} {...register('meta_title')} />
      </FormField>
      <FormField
        label="Meta description"
        htmlFor={field('meta-description')}
        counter={characterCount(metaDescription, META_DESCRIPTION_MAX)}
        error={errors.meta_description?.message}
      >
        <Textarea
          id={field('meta-description')}
          rows={2}
          maxLength={META_DESCRIPTION_MAX}
          {...register('meta_description')}
        />
      </FormField>
      <SearchResultPreview
        slug={slug.trim()}
        title={metaTitle.trim() || title.trim()}
        description={metaDescription.trim() || excerpt.trim()}
      />
    </div>
  )
}
