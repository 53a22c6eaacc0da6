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

import type { Database } from './database.types.ts'
import { resolvePlatformEnv, type PlatformEnv } from './platform-env.ts'

/** A supabase-js client typed with the public schema. */
export type Db = SupabaseClient<Database>

export { keyFromDictionary, resolvePlatformEnv, type PlatformEnv } from './platform-env.ts'

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
