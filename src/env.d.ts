/// <reference types="astro/client" />

// Lets plain `tsc` (not only `astro check`) type the site before `.astro/types.d.ts` is generated.
interface ImportMetaEnv {
  readonly PUBLIC_SUPABASE_URL?: string
  readonly PUBLIC_SUPABASE_ANON_KEY?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
