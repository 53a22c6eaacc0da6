import { z } from 'zod'

import { GenerateBodySchema, NO_TOPIC_MESSAGE } from '@shared/ai/schemas.ts'

/**
 * The Content Generation form as it holds its fields (selects give '' for none), turned into the body the
 * generate-blog-content function checks with the same shared schema (GenerateBodySchema): a chosen topic wins over the
 * custom one, an empty category is sent as null. Without either topic it fails on the custom topic field with the
 * function's own message ('Please select a topic or enter a custom topic').
 */
export const GenerateFormSchema = z
  .object({
    topicId: z.string(),
    customTopic: z.string(),
    categoryId: z.string(),
    autoPublish: z.boolean(),
  })
  .refine((form) => form.topicId !== '' || form.customTopic.trim() !== '', {
    message: NO_TOPIC_MESSAGE,
    path: ['customTopic'],
  })
  .transform((form): z.input<typeof GenerateBodySchema> => ({
    ...(form.topicId ? { topicId: form.topicId } : { customTopic: form.customTopic.trim() }),
    categoryId: form.categoryId || null,
    autoPublish: form.autoPublish,
  }))
  .pipe(GenerateBodySchema)

export type GenerateFormValues = z.input<typeof GenerateFormSchema>

export const EMPTY_GENERATE_FORM: GenerateFormValues = {
  topicId: '',
  customTopic: '',
  categoryId: '',
  autoPublish: false,
}
