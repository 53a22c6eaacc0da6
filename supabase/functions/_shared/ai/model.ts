/**
 * The model side of the content functions: a LanguageModel from the AI config, and one structured call with
 * a zod schema through the Vercel AI SDK (generateText with Output.object).
 *
 * Failure handling per call:
 * - provider errors (HTTP 5xx/429, network) are retried by the SDK itself (`maxRetries`, exponential back-off);
 * - output that is not JSON or does not match the schema (NoObjectGeneratedError) is asked for again, up to
 *   `outputAttempts` calls in all, because the SDK's retries cover transport errors only;
 * - each call gets its own deadline (`abortSignal: AbortSignal.timeout(timeoutMs)`), which also ends the SDK's
 *   retries of that call.
 * Every failure becomes an AiCallError whose message is safe to store in content_generation_jobs.error_message.
 */
import { APICallError, generateText, NoObjectGeneratedError, Output, RetryError, type LanguageModel } from 'ai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { z } from 'zod'
import type { AiConfig } from './config.ts'
import { AiCallError, addUsage, type TokenUsage } from './usage.ts'

export { AiCallError, addUsage, emptyUsage, type TokenUsage } from './usage.ts'

/** The provider's chat model for a configured provider; `fetch` is for tests. */
export function createLanguageModel(
  config: Exclude<AiConfig, { provider: 'none' }>,
  fetchImpl?: typeof fetch,
): LanguageModel {
  if (config.provider === 'anthropic') {
    return createAnthropic({ apiKey: config.apiKey, baseURL: config.baseUrl, fetch: fetchImpl })(config.model)
  }
  return createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: config.baseUrl!,
    apiKey: config.apiKey,
    // json_schema response_format: servers that do not know it (older llama.cpp, vLLM) still get the schema in
    // the prompt and the SDK validates the answer, so invalid output is caught either way
    supportsStructuredOutputs: true,
    fetch: fetchImpl,
  })(config.model)
}

export interface StructuredCall<SCHEMA extends z.ZodType> {
  model: LanguageModel
  schema: SCHEMA
  schemaName: string
  system: string
  prompt: string
  /** Milliseconds before one call is aborted. */
  timeoutMs: number
  /** SDK retries of provider errors per call. */
  maxRetries: number
  /** Calls in all when the output is invalid (default 2). */
  outputAttempts?: number
  /** Usage of every call is added here, failed ones included. */
  usage: TokenUsage
  maxOutputTokens?: number
}

function describeProviderError(error: unknown): string {
  const last = RetryError.isInstance(error) ? error.lastError : error
  if (APICallError.isInstance(last)) {
    return `AI provider error${last.statusCode ? ` (HTTP ${last.statusCode})` : ''}: ${last.message}`.slice(0, 500)
  }
  return `AI provider error: ${last instanceof Error ? last.message : String(last)}`.slice(0, 500)
}

/** One structured model call (see module doc); resolves to the schema's output or throws AiCallError. */
export async function generateStructured<SCHEMA extends z.ZodType>(
  call: StructuredCall<SCHEMA>,
): Promise<z.infer<SCHEMA>> {
  const attempts = Math.max(1, call.outputAttempts ?? 2)
  let lastInvalid = ''
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const signal = AbortSignal.timeout(call.timeoutMs)
    try {
      const result = await generateText({
        model: call.model,
        system: call.system,
        prompt: call.prompt,
        output: Output.object({ schema: call.schema, name: call.schemaName }),
        maxRetries: call.maxRetries,
        abortSignal: signal,
        maxOutputTokens: call.maxOutputTokens,
      })
      addUsage(call.usage, result.totalUsage ?? result.usage)
      return result.output as z.infer<SCHEMA>
    } catch (error) {
      if (signal.aborted) {
        addUsage(call.usage, undefined)
        throw new AiCallError(`AI model call timed out after ${call.timeoutMs} ms`, 'timeout', call.usage)
      }
      if (NoObjectGeneratedError.isInstance(error)) {
        addUsage(call.usage, error.usage)
        lastInvalid = error.cause instanceof Error ? error.cause.message : error.message
        continue
      }
      addUsage(call.usage, undefined)
      throw new AiCallError(describeProviderError(error), 'provider', call.usage)
    }
  }
  throw new AiCallError(
    `AI model returned invalid ${call.schemaName} output ${attempts} times: ${lastInvalid.replace(/\s+/g, ' ').slice(0, 300)}`,
    'invalid-output',
    call.usage,
  )
}
