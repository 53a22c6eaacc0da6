// @ts-check
import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'astro/config'
import { loadEnv } from 'vite'

import { aliases } from './aliases.ts'
import { cspScriptHashes } from './scripts/lib/csp-hashes.ts'

// astro.config is evaluated before Astro loads .env, so read it explicitly (shell variables still win).
const { ASTRO_OUT_DIR, SITE_URL, PUBLIC_SUPABASE_URL } = loadEnv(
  process.env.NODE_ENV ?? 'production',
  process.cwd(),
  '',
)

/**
 * The remote images the build may download and resize (src/lib/post-images.ts): public objects of the project's own
 * Supabase Storage, e.g. the post-media bucket. Nothing when the URL is not set.
 */
function storageImagePatterns(supabaseUrl) {
  if (!supabaseUrl) return []
  const url = new URL(supabaseUrl)
  return [
    {
      protocol: url.protocol.replace(':', ''),
      hostname: url.hostname,
      ...(url.port ? { port: url.port } : {}),
      pathname: '/storage/v1/object/public/**',
    },
  ]
}

export default defineConfig({
  output: 'static',
  outDir: ASTRO_OUT_DIR || './dist/site',
  site: SITE_URL || 'http://localhost:4321',
  // the built _headers gets the SHA-256 of every inline script in place of 'unsafe-inline' (security issue)
  // client:interaction (src/lib/client-interaction.ts): islands that load when the visitor first touches them
  integrations: [
    react(),
    cspScriptHashes(),
    {
      name: 'client-interaction',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective({ name: 'interaction', entrypoint: './src/lib/client-interaction.ts' })
        },
      },
    },
  ],
  // One small stylesheet (Tailwind, site sources only) inlined into each page: no render-blocking request before
  // the first paint, which is what the mobile Lighthouse budget (slow 4G, 150 ms round trips) is most sensitive to.
  build: { inlineStylesheets: 'always' },
  image: { remotePatterns: storageImagePatterns(PUBLIC_SUPABASE_URL) },
  vite: {
    plugins: [tailwindcss()],
    resolve: { alias: aliases },
  },
})
