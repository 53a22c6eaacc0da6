import { createClient } from '@supabase/supabase-js'

import type { Database } from '@shared/database.types.ts'
import { env } from './env'

/**
 * The admin app's typed Supabase client. It holds only the anon key: what an admin may do is decided by
 * RLS policies and `public.is_admin()` on the server, never by this app. The session is persisted to
 * localStorage and refreshed automatically.
 *
 * Throws on import when PUBLIC_SUPABASE_URL or PUBLIC_SUPABASE_ANON_KEY is missing (see `./env`).
 */
export const supabase = createClient<Database>(env.PUBLIC_SUPABASE_URL, env.PUBLIC_SUPABASE_ANON_KEY, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
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
