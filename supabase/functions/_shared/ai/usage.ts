/**
 * Token accounting and the error type of model calls, apart from model.ts so the functions can use them without
 * loading the AI SDK (which is imported only when a provider is configured, see load-model.ts).
 */

export class AiCallError extends Error {
  override name = 'AiCallError'
  constructor(
    message: string,
    readonly kind: 'timeout' | 'invalid-output' | 'provider',
    readonly usage: TokenUsage,
  ) {
    super(message)
  }
}

/**
 * Token usage summed over the calls of one job (stored in content_generation_jobs.token_usage). A type alias, not an
 * interface, so it is assignable to the column's generated `Json` type.
 */
export type TokenUsage = {
  input_tokens: number
  output_tokens: number
  total_tokens: number
  /** Model calls made, including repeated ones after invalid output. */
  calls: number
}

export function emptyUsage(): TokenUsage {
  return { input_tokens: 0, output_tokens: 0, total_tokens: 0, calls: 0 }
}

export function addUsage(
  total: TokenUsage,
  usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined,
): void {
  total.calls += 1
  if (!usage) return
  total.input_tokens += usage.inputTokens ?? 0
  total.output_tokens += usage.outputTokens ?? 0
  total.total_tokens += usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0)
}
