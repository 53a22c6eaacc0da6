import { parsePublicEnv } from '@shared/public-env.ts'

/**
 * Public configuration of the Astro site, validated when first imported (at build time for prebuilt pages,
 * on page load for islands). Each variable is read by name so Vite can inline it into island bundles.
 */
export const env = parsePublicEnv({
  PUBLIC_SUPABASE_URL: import.meta.env.PUBLIC_SUPABASE_URL,
  PUBLIC_SUPABASE_ANON_KEY: import.meta.env.PUBLIC_SUPABASE_ANON_KEY,
})
