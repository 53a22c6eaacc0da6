import { FunctionsHttpError } from '@supabase/supabase-js'
import { z } from 'zod'

import { supabase } from '@/lib/supabase'

/**
 * Calls an admin content function and returns its JSON. A 4xx/5xx becomes an Error with the function's own
 * `error` message (e.g. 'Please select a topic or enter a custom topic'), so toasts can show it as is.
 */
export async function invokeContentFunction(
  slug: 'discover-trending-topics' | 'generate-blog-content',
  body: Record<string, unknown>,
): Promise<unknown> {
  const { data, error } = await supabase.functions.invoke(slug, { body })
  if (error) {
    if (error instanceof FunctionsHttpError) {
      const payload: unknown = await (error.context as Response).json().catch(() => null)
      const parsed = z.object({ error: z.string() }).safeParse(payload)
      throw new Error(parsed.success ? parsed.data.error : `The ${slug} function failed`)
    }
    throw new Error(error.message)
  }
  return data
}

export const ProviderStatusSchema = z.object({
  provider: z.enum(['none', 'openai-compatible', 'anthropic']),
  model: z.string().nullable(),
  label: z.string(),
})
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>

export const DiscoverResultSchema = z.object({ topicsDiscovered: z.number().int().min(0) })
export const GenerateResultSchema = z.object({ jobId: z.string(), status: z.string() })
