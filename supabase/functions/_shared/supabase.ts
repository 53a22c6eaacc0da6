/**
 * The edge functions' one way to reach the database: typed supabase-js clients (`Database` is generated from the
 * migrations by `npm run gen:types`) built from the platform variables that hosted Supabase and the local stand-in
 * inject into every function (SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY).
 * The variables are validated on first use and a missing one throws an Error naming it, so a misconfigured function
 * fails at boot rather than answering with a half-working client.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';

import type { Database } from './database.types.ts';

/** A supabase-js client typed with the public schema. */
export type Db = SupabaseClient<Database>;

const PlatformEnvSchema = z.object({
  SUPABASE_URL: z.url({ error: 'SUPABASE_URL must be the project URL' }),
  SUPABASE_ANON_KEY: z.string({ error: 'SUPABASE_ANON_KEY is not set' }).min(1, { error: 'SUPABASE_ANON_KEY is not set' }),
  SUPABASE_SERVICE_ROLE_KEY: z
    .string({ error: 'SUPABASE_SERVICE_ROLE_KEY is not set' })
    .min(1, { error: 'SUPABASE_SERVICE_ROLE_KEY is not set' }),
});

/** The validated platform variables. */
export type PlatformEnv = z.infer<typeof PlatformEnvSchema>;

let cached: PlatformEnv | undefined;

/** Reads and validates the platform variables once; throws an Error naming each missing or invalid one. */
export function platformEnv(): PlatformEnv {
  if (cached) return cached;
  const parsed = PlatformEnvSchema.safeParse({
    SUPABASE_URL: Deno.env.get('SUPABASE_URL'),
    SUPABASE_ANON_KEY: Deno.env.get('SUPABASE_ANON_KEY'),
    SUPABASE_SERVICE_ROLE_KEY: Deno.env.get('SUPABASE_SERVICE_ROLE_KEY'),
  });
  if (!parsed.success) throw new Error(`Invalid function environment: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  cached = parsed.data;
  return cached;
}

const serverOptions = { auth: { persistSession: false, autoRefreshToken: false } } as const;

/** Service-role client: bypasses RLS, so only for writes a function has already authorized and validated. */
export function serviceClient(): Db {
  const env = platformEnv();
  return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, serverOptions);
}

/**
 * Client with the anon key, acting as the caller when `authorization` (their `Authorization: Bearer <jwt>` header)
 * is given, so RLS applies exactly as it does to the caller's own requests.
 */
export function callerClient(authorization?: string): Db {
  const env = platformEnv();
  return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    ...serverOptions,
    ...(authorization ? { global: { headers: { Authorization: authorization } } } : {}),
  });
}
