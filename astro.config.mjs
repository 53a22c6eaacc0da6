// @ts-check
import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'astro/config'
import { loadEnv } from 'vite'

import { aliases } from './aliases.ts'
import { cspScriptHashes } from './scripts/lib/csp-hashes.ts'
import { buildReport } from './src/integrations/build-report.ts'

// astro.config is evaluated before Astro loads .env, so read it explicitly (shell variables still win).
const { ASTRO_OUT_DIR, ASTRO_CACHE_DIR, SITE_URL, PUBLIC_SUPABASE_URL } = loadEnv(
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
  // Astro's incremental build cache lives here (src/integrations/build-report.ts): node_modules/.astro by default,
  // the directory Netlify and Cloudflare Pages keep between builds; a local builder gives each site its own
  cacheDir: ASTRO_CACHE_DIR || './node_modules/.astro',
  site: SITE_URL || 'http://localhost:4321',
  // the built _headers gets the SHA-256 of every inline script in place of 'unsafe-inline' (security issue)
  // client:interaction (src/lib/client-interaction.ts): islands that load when the visitor first touches them
  integrations: [
    react(),
    cspScriptHashes(),
    buildReport({
      groups: {
        '/agent/[id]': 'agent',
        '/agents/[zip]': 'zip',
        '/agents/[state]/[city]': 'city',
        '/blog/[slug]': 'article',
        '/blog/category/[slug]': 'category',
      },
    }),
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
  // a path whose getStaticPaths cacheKey and template are unchanged since the cached build is reused, not rendered
  experimental: { incrementalBuild: true },
  image: { remotePatterns: storageImagePatterns(PUBLIC_SUPABASE_URL) },
  vite: {
    plugins: [tailwindcss()],
    resolve: {
      alias: [
        ...aliases,
        // the shared CSV module imports csv-stringify's Node build; the site (browser) takes its browser build
        { find: /^csv-stringify\/sync$/, replacement: 'csv-stringify/browser/esm/sync' },
      ],
    },
  },
})
