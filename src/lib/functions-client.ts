/**
 * Calls the project's edge functions from the browser with the anon key, without loading supabase-js or the full
 * zod (the search-results island ships only React and this). Shared by the search-results island and the
 * report-request dialog.
 */
import * as z from 'zod/mini'

// The same rules as ./public-env.ts, in zod/mini: ./env.ts would pull the full zod into every page that calls a function.
const FunctionsEnvSchema = z.object({
  PUBLIC_SUPABASE_URL: z.url({ protocol: /^https?$/ }),
  PUBLIC_SUPABASE_ANON_KEY: z.string().check(z.trim(), z.minLength(1)),
})

let functionsEnv: z.infer<typeof FunctionsEnvSchema> | undefined

/** @throws Error naming the missing or invalid PUBLIC_ variable (a misconfigured build fails loudly). */
function readEnv() {
  if (functionsEnv) return functionsEnv
  const source = { PUBLIC_SUPABASE_URL: import.meta.env.PUBLIC_SUPABASE_URL, PUBLIC_SUPABASE_ANON_KEY: import.meta.env.PUBLIC_SUPABASE_ANON_KEY }
  const parsed = FunctionsEnvSchema.safeParse(source)
  if (!parsed.success) {
    const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))].join(', ')
    throw new Error(`Invalid environment: ${names} is missing or invalid. Set it in .env or in the environment of the build.`)
  }
  functionsEnv = parsed.data
  return functionsEnv
}

/** A function's answer: its HTTP status and parsed JSON body (null when the body was not JSON). */
export interface FunctionResponse<T> {
  status: number
  ok: boolean
  body: T | null
}

/**
 * POSTs `body` as JSON to /functions/v1/<slug>.
 * @throws TypeError when the network request itself fails (offline, CORS, server down); HTTP errors are returned.
 */
export async function callFunction<T>(slug: string, body: unknown, signal?: AbortSignal): Promise<FunctionResponse<T>> {
  const env = readEnv()
  const response = await fetch(`${env.PUBLIC_SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/${slug}`, {
    method: 'POST',
    headers: {
      apikey: env.PUBLIC_SUPABASE_ANON_KEY,
      Authorization: `Bearer ${env.PUBLIC_SUPABASE_ANON_KEY}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
    signal,
  })
  const parsed = (await response.json().catch(() => null)) as T | null
  return { status: response.status, ok: response.ok, body: parsed }
}
