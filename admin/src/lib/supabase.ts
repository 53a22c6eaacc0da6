import { createClient } from '@supabase/supabase-js'

import type { Database } from '@shared/database.types.ts'
import { env } from './env'

/**
 * The admin app's typed Supabase client. It holds only the anon key: what an admin may do is decided by
 * RLS policies and `public.is_admin()` on the server, never by this app. The session is persisted to
 * localStorage under its own key (never the public site's, even when both share an origin) and refreshed
 * automatically; auth redirects use the PKCE flow (a one-time code, no session in a URL).
 *
 * Throws on import when PUBLIC_SUPABASE_URL or PUBLIC_SUPABASE_ANON_KEY is missing (see `./env`).
 */
/** The admin's localStorage key for its session. */
export const ADMIN_SESSION_KEY = 'agent-insight-admin-auth'

export const supabase = createClient<Database>(env.PUBLIC_SUPABASE_URL, env.PUBLIC_SUPABASE_ANON_KEY, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    flowType: 'pkce',
    storageKey: ADMIN_SESSION_KEY,
  },
})

/**
 * The one way the admin reads a supabase-js answer (`{ data, error }` from PostgREST, GoTrue, Storage or Functions):
 * resolves to its `data`, or rejects with its `error` (the PostgrestError, AuthError, ... supabase-js made), so a
 * failed call is never mistaken for an empty answer.
 */
export async function dataOrThrow<TAnswer extends { data: unknown; error: Error | null }>(
  request: PromiseLike<TAnswer>,
): Promise<Extract<TAnswer, { error: null }>['data']> {
  const { data, error } = await request
  if (error) throw error
  return data
}
