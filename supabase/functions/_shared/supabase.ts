/**
 * The edge functions' one way to reach the database: typed supabase-js clients (`Database` is generated from the
 * migrations by `npm run gen:types`) built from the platform variables that hosted Supabase and the local stand-in
 * inject into every function: SUPABASE_URL and the API keys. Hosted Supabase injects the new keys as JSON
 * dictionaries, SUPABASE_PUBLISHABLE_KEYS = {"default": "sb_publishable_..."} and SUPABASE_SECRET_KEYS =
 * {"default": "sb_secret_..."} (https://supabase.com/docs/guides/functions/secrets), and the legacy JWT keys
 * SUPABASE_ANON_KEY / SUPABASE_SERVICE_ROLE_KEY (deprecated by the end of 2026). The new keys win when present.
 * The variables are validated on first use and a missing one throws an Error naming it, so a misconfigured function
 * fails at boot rather than answering with a half-working client.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { z } from 'zod'

import type { Database } from './database.types.ts'

/** A supabase-js client typed with the public schema. */
export type Db = SupabaseClient<Database>

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

let cached: PlatformEnv | undefined

/** Reads and validates the platform variables once; throws an Error naming each missing or invalid one. */
export function platformEnv(): PlatformEnv {
  cached ??= resolvePlatformEnv((name) => Deno.env.get(name))
  return cached
}

const serverOptions = { auth: { persistSession: false, autoRefreshToken: false } } as const

/** Service-role client: bypasses RLS, so only for writes a function has already authorized and validated. */
export function serviceClient(): Db {
  const env = platformEnv()
  return createClient<Database>(env.SUPABASE_URL, env.secretKey, serverOptions)
}

/**
 * Client with the publishable (anon) key, acting as the caller when `authorization` (their `Authorization: Bearer <jwt>` header)
 * is given, so RLS applies exactly as it does to the caller's own requests.
 */
export function callerClient(authorization?: string): Db {
  const env = platformEnv()
  return createClient<Database>(env.SUPABASE_URL, env.publishableKey, {
    ...serverOptions,
    ...(authorization ? { global: { headers: { Authorization: authorization } } } : {}),
  })
}
