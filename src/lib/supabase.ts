import { createClient } from '@supabase/supabase-js'

import type { Database } from '@shared/database.types.ts'
import { env } from './env'

const isBrowser = typeof window !== 'undefined'

/**
 * The site's typed Supabase client, holding only the anon key.
 *
 * Used at build time (Astro frontmatter, where it reads published rows as `anon`) and in React islands.
 * In the browser the session is persisted to localStorage and refreshed automatically; at build time there
 * is no user and nothing to persist, so both are off. Email links use the PKCE flow: the link brings back a one-time
 * code that only this browser (holding the code verifier) can exchange, never a session in the URL.
 *
 * Throws on import when PUBLIC_SUPABASE_URL or PUBLIC_SUPABASE_ANON_KEY is missing (see `./env`).
 */
export const supabase = createClient<Database>(env.PUBLIC_SUPABASE_URL, env.PUBLIC_SUPABASE_ANON_KEY, {
  auth: {
    persistSession: isBrowser,
    autoRefreshToken: isBrowser,
    detectSessionInUrl: isBrowser,
    flowType: 'pkce',
  },
})
