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
