/**
 * The platform variables hosted Supabase and the local stand-in inject into every function (SUPABASE_URL and the API
 * keys, new and legacy; see ./supabase.ts), read from any environment: no Deno or supabase-js here, so Node code
 * that shares function modules (the mail client, the deploy check) can load it.
 */
import { z } from 'zod'

/** The validated platform variables: the project URL and the key pair the functions use. */
export interface PlatformEnv {
  SUPABASE_URL: string
  /** Publishable key (sb_publishable_...) or the legacy anon key: RLS applies. */
  publishableKey: string
  /** Secret key (sb_secret_...) or the legacy service_role key: bypasses RLS. */
  secretKey: string
  /** Every accepted secret key (new and legacy), for callers that authenticate with one (webhooks, scripts). */
  secretKeys: string[]
}

const KeyDictionarySchema = z.record(z.string(), z.string().min(1))

/**
 * Picks the key named `default` (else the first) from a SUPABASE_*_KEYS JSON dictionary.
 * @returns the key, or undefined when `raw` is unset; throws an Error naming `variable` when it is not such JSON.
 */
export function keyFromDictionary(
  variable: string,
  raw: string | undefined,
): { key: string; all: string[] } | undefined {
  if (raw === undefined || raw.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new Error(`${variable} must be a JSON object of named keys, e.g. {"default":"sb_..."}`)
  }
  const result = KeyDictionarySchema.safeParse(parsed)
  const all = result.success ? Object.values(result.data) : []
  if (all.length === 0) throw new Error(`${variable} must be a JSON object of named keys, e.g. {"default":"sb_..."}`)
  return { key: result.data!.default ?? all[0]!, all }
}

/**
 * Resolves the platform variables from `read` (Deno.env.get in functions).
 * @throws Error naming each missing or invalid variable.
 */
export function resolvePlatformEnv(read: (name: string) => string | undefined): PlatformEnv {
  const problems: string[] = []
  const url = z.url().safeParse(read('SUPABASE_URL'))
  if (!url.success) problems.push('SUPABASE_URL must be the project URL')
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn()
    } catch (error) {
      problems.push((error as Error).message)
      return undefined
    }
  }
  const publishable = attempt(() => keyFromDictionary('SUPABASE_PUBLISHABLE_KEYS', read('SUPABASE_PUBLISHABLE_KEYS')))
  const secret = attempt(() => keyFromDictionary('SUPABASE_SECRET_KEYS', read('SUPABASE_SECRET_KEYS')))
  const legacyAnon = read('SUPABASE_ANON_KEY')?.trim() || undefined
  const legacyService = read('SUPABASE_SERVICE_ROLE_KEY')?.trim() || undefined
  const publishableKey = publishable?.key ?? legacyAnon
  const secretKey = secret?.key ?? legacyService
  if (!publishableKey && !problems.some((p) => p.startsWith('SUPABASE_PUBLISHABLE_KEYS'))) {
    problems.push('SUPABASE_PUBLISHABLE_KEYS (or the legacy SUPABASE_ANON_KEY) is not set')
  }
  if (!secretKey && !problems.some((p) => p.startsWith('SUPABASE_SECRET_KEYS'))) {
    problems.push('SUPABASE_SECRET_KEYS (or the legacy SUPABASE_SERVICE_ROLE_KEY) is not set')
  }
  if (problems.length > 0) throw new Error(`Invalid function environment: ${problems.join('; ')}`)
  return {
    SUPABASE_URL: url.data!,
    publishableKey: publishableKey!,
    secretKey: secretKey!,
    secretKeys: [...(secret?.all ?? []), ...(legacyService ? [legacyService] : [])],
  }
}
