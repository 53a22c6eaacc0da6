import { createClient, type PostgrestSingleResponse } from '@supabase/supabase-js'

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
 * The `data` of a supabase-js answer (`{ data, error }` from PostgREST, GoTrue or Functions); rejects with its
 * `error` instead, so a failed call is never mistaken for an empty answer.
 */
export async function dataOrThrow<TData>(
  request: PromiseLike<{ data: TData; error: null } | { data: unknown; error: Error }>,
): Promise<TData> {
  const { data, error } = await request
  if (error) throw error
  return data as TData
}

/**
 * The `queryFn` of a PostgREST read: runs `request` with the query's abort signal
 * and resolves to its `data`, or rejects with its PostgrestError.
 */
export function postgrestRead<TData>(request: (signal: AbortSignal) => PromiseLike<PostgrestSingleResponse<TData>>) {
  return ({ signal }: { signal: AbortSignal }): Promise<TData> => dataOrThrow(request(signal))
}
