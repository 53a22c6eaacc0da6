/**
 * Loads the AI SDK only when a provider is configured, so the built-in writer path never pays for (or depends on)
 * the SDK. The SDK's gateway dependency (@vercel/oidc) reads os.hostname() when it loads; where the runtime denies
 * that (Deno without --allow-sys, as in the local stand-in), a fixed name is returned instead: it only ends up in
 * a user-agent string of the Vercel gateway, which this project does not use.
 */
import os from 'node:os'
import type { AiConfig } from './config.ts'
import type { generateStructured } from './model.ts'

export interface ModelClient {
  model: import('ai').LanguageModel
  generateStructured: typeof generateStructured
}

export async function loadModelClient(config: Exclude<AiConfig, { provider: 'none' }>): Promise<ModelClient> {
  try {
    os.hostname()
  } catch {
    ;(os as unknown as { hostname: () => string }).hostname = () => 'edge-function'
  }
  const module = await import('./model.ts')
  return { model: module.createLanguageModel(config), generateStructured: module.generateStructured }
}
