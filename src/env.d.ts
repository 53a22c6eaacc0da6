/// <reference types="astro/client" />

// Lets plain `tsc` (not only `astro check`) type the site before `.astro/types.d.ts` is generated.
interface ImportMetaEnv {
  readonly PUBLIC_SUPABASE_URL?: string
  readonly PUBLIC_SUPABASE_ANON_KEY?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}

/** The home page's hero picture (src/integrations/hero-picture.ts). */
declare module 'virtual:hero-picture' {
  import type { HeroPicture } from '~/integrations/hero-picture'
  const picture: HeroPicture
  export default picture
}
