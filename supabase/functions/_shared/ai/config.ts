/**
 * AI provider configuration of the content functions, read from secrets at start-up:
 *
 * | AI_PROVIDER          | also needs                         | model client                                   |
 * | none (or unset)      | nothing                            | built-in deterministic writer, no model calls  |
 * | openai-compatible    | AI_BASE_URL, AI_MODEL, AI_API_KEY? | @ai-sdk/openai-compatible (any /chat/completions server) |
 * | anthropic            | AI_API_KEY, AI_MODEL, AI_BASE_URL? | @ai-sdk/anthropic                              |
 *
 * Optional: AI_TIMEOUT_MS (per model call, default 120000), AI_MAX_RETRIES (provider errors, default 2),
 * AI_TARGET_WORDS (word target of a model article as "min-max", default 1500-2500; the built-in writer has none).
 * A bad combination throws AiConfigError naming the variable, so the function fails to boot with a clear log line
 * instead of failing per request.
 */
import { z } from 'zod'

export class AiConfigError extends Error {
  override name = 'AiConfigError'
}

const ProviderSchema = z.enum(['none', 'openai-compatible', 'anthropic'])

const NumberFromEnv = (fallback: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === undefined || value === '' ? fallback : Number(value)))
    .pipe(z.number().int().min(0).max(max))

const EnvSchema = z.object({
  AI_PROVIDER: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value) => (value === undefined || value === '' ? 'none' : value))
    .pipe(ProviderSchema),
  AI_BASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(z.url().optional()),
  AI_API_KEY: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined),
  AI_MODEL: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined),
  AI_TIMEOUT_MS: NumberFromEnv(120_000, 900_000),
  AI_MAX_RETRIES: NumberFromEnv(2, 10),
  AI_TARGET_WORDS: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === undefined || value === '' ? '1500-2500' : value))
    .pipe(z.string().regex(/^\d{2,5}\s*-\s*\d{2,5}$/, 'use "min-max" words, e.g. 1500-2500'))
    .transform((value) => {
      const [min, max] = value.split('-').map((part) => Number(part.trim()))
      return { min: min!, max: max! }
    })
    .refine(
      (target) => target.min >= 100 && target.max >= target.min && target.max <= 20_000,
      'min must be at least 100 and max between min and 20000',
    ),
})

/** Default word target of a model article (issue: 1,500-2,500 words). */
export const DEFAULT_TARGET_WORDS = { min: 1500, max: 2500 } as const

export type AiConfig =
  | { provider: 'none' }
  | {
      provider: 'openai-compatible' | 'anthropic'
      model: string
      baseUrl: string | undefined
      apiKey: string | undefined
      /** Milliseconds per model call before it is aborted. */
      timeoutMs: number
      /** Retries of failed provider calls (5xx, 429, network) done by the AI SDK. */
      maxRetries: number
      /** Word target of a model article, inclusive. */
      targetWords: { min: number; max: number }
    }

/** Validates the AI_* variables (see module doc); throws AiConfigError naming the problem. */
export function parseAiConfig(env: Record<string, string | undefined>): AiConfig {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const name = String(issue.path[0] ?? 'AI_*')
    throw new AiConfigError(
      name === 'AI_PROVIDER'
        ? `AI_PROVIDER must be one of none, openai-compatible, anthropic (got "${env.AI_PROVIDER}")`
        : `${name} is invalid: ${issue.message}`,
    )
  }
  const value = parsed.data
  if (value.AI_PROVIDER === 'none') return { provider: 'none' }
  if (!value.AI_MODEL) throw new AiConfigError(`AI_MODEL is required when AI_PROVIDER is ${value.AI_PROVIDER}`)
  if (value.AI_PROVIDER === 'openai-compatible' && !value.AI_BASE_URL) {
    throw new AiConfigError(
      'AI_BASE_URL is required when AI_PROVIDER is openai-compatible (e.g. http://127.0.0.1:11434/v1)',
    )
  }
  if (value.AI_PROVIDER === 'anthropic' && !value.AI_API_KEY) {
    throw new AiConfigError('AI_API_KEY is required when AI_PROVIDER is anthropic')
  }
  return {
    provider: value.AI_PROVIDER,
    model: value.AI_MODEL,
    baseUrl: value.AI_BASE_URL,
    apiKey: value.AI_API_KEY,
    timeoutMs: value.AI_TIMEOUT_MS,
    maxRetries: value.AI_MAX_RETRIES,
    targetWords: value.AI_TARGET_WORDS,
  }
}

/** What the admin shows about the active writer; never includes the key or the base URL. */
export interface ProviderStatus {
  provider: 'none' | 'openai-compatible' | 'anthropic'
  model: string | null
  /** Display text, e.g. 'Built-in writer (no AI provider configured)' or 'anthropic · claude-sonnet-4'. */
  label: string
}

export const BUILT_IN_WRITER_LABEL = 'Built-in writer (no AI provider configured)'

export function providerStatus(config: AiConfig): ProviderStatus {
  if (config.provider === 'none') return { provider: 'none', model: null, label: BUILT_IN_WRITER_LABEL }
  return { provider: config.provider, model: config.model, label: `${config.provider} · ${config.model}` }
}
