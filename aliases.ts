/**
 * The import aliases, one map for every tool that resolves our modules (Astro, the admin's Vite, Vitest); tsconfig
 * `paths` and supabase/functions/deno.json `imports` say the same for tsc and Deno. A shared rule has one home and one import path.
 * - `@shared/` → supabase/functions/_shared/: rules the site, the admin and the edge functions share.
 * - `~/` → src/: the public site.
 * - `@/` → admin/src/: the admin app.
 */
import { fileURLToPath } from 'node:url'

const at = (dir: string): string => fileURLToPath(new URL(dir, import.meta.url))

/** Vite `resolve.alias` entries (prefix form, so `@shared/urls.ts` maps to `<root>/supabase/functions/_shared/urls.ts`). */
export const aliases: { find: RegExp; replacement: string }[] = [
  { find: /^@shared\//, replacement: at('./supabase/functions/_shared/') },
  { find: /^~\//, replacement: at('./src/') },
  { find: /^@\//, replacement: at('./admin/src/') },
]
