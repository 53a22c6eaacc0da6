import { parsePublicEnv } from '@shared/public-env.ts'

/**
 * Public configuration of the admin app, validated on page load. Vite reads PUBLIC_* variables from the
 * repository root's .env (see `envDir`/`envPrefix` in vite.config.ts) and inlines each one read by name.
 */
export const env = parsePublicEnv({
  PUBLIC_SUPABASE_URL: import.meta.env.PUBLIC_SUPABASE_URL,
  PUBLIC_SUPABASE_ANON_KEY: import.meta.env.PUBLIC_SUPABASE_ANON_KEY,
})
