/**
 * Vitest global setup: reuses the stack that scripts/test.ts started (TEST_SUPABASE_URL set), or starts a
 * throwaway one for a direct `npx vitest` run.
 */
import type { TestProject } from 'vitest/node'
import { startTestStack } from './test-stack.ts'

export default async function setup(project: TestProject) {
  if (process.env.TEST_SUPABASE_URL) return
  const { env, stop } = await startTestStack()
  Object.assign(process.env, env)
  for (const [key, value] of Object.entries(env)) project.provide(key as never, value as never)
  return stop
}
