import { z } from 'zod'

/**
 * The public (browser-safe) configuration shared by the Astro site and the admin app.
 * Only the anon (publishable) key belongs here; the service-role key never reaches a browser.
 */
export const PublicEnvSchema = z.object({
  PUBLIC_SUPABASE_URL: z.url({ protocol: /^https?$/ }),
  PUBLIC_SUPABASE_ANON_KEY: z.string().trim().min(1),
})

export type PublicEnv = z.infer<typeof PublicEnvSchema>

/**
 * Validates the public environment once, at start-up.
 *
 * @param source raw values, read by the caller from its own `import.meta.env` (each runtime inlines its own).
 * @returns the validated values.
 * @throws Error naming every missing or invalid variable, so a misconfigured build or page load fails loudly.
 */
export function parsePublicEnv(source: Record<keyof PublicEnv, string | undefined>): PublicEnv {
  const result = PublicEnvSchema.safeParse(source)
  if (result.success) return result.data

  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0])
    const value = source[name as keyof PublicEnv]
    return value === undefined || value.trim() === '' ? `${name} is not set` : `${name} is invalid: ${issue.message}`
  })
  throw new Error(
    `Invalid environment: ${problems.join('; ')}. Set the variables in .env at the repository root or in the environment of the build.`,
  )
}
