// @ts-check
import cloudflare from '@astrojs/cloudflare'
import react from '@astrojs/react'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'astro/config'
import { fileURLToPath } from 'node:url'
import { loadEnv } from 'vite'

import { aliases } from './aliases.ts'
import { cspScriptHashes } from './scripts/lib/csp-hashes.ts'
import { buildReport } from './src/integrations/build-report.ts'
import { cloudflarePages } from './src/integrations/cloudflare-pages.ts'
import { heroPicture } from './src/integrations/hero-picture.ts'
import { postImages } from './src/integrations/post-images.ts'
import { rerenderRoutes } from './src/integrations/rerender-routes.ts'
import { pageCssScriptTokens } from './src/lib/page-css-script-tokens.ts'

// astro.config is evaluated before Astro loads .env, so read it explicitly (shell variables still win).
const { ASTRO_OUT_DIR, ASTRO_CACHE_DIR, SITE_URL, PUBLIC_SUPABASE_URL } = loadEnv(
  process.env.NODE_ENV ?? 'production',
  process.cwd(),
  '',
)

/** client:interaction (src/lib/client-interaction.ts): islands that load when the visitor first touches them. */
const CLIENT_INTERACTION = { name: 'interaction', entrypoint: './src/lib/client-interaction.ts' }

export default defineConfig({
  output: 'static',
  // Pages are prerendered; the agent pages the build leaves out are rendered on demand (src/pages/agent/[...id].astro)
  // by the static host's function: Astro's Cloudflare adapter, its worker in _worker.js/ of the output directory
  // (src/integrations/cloudflare-pages.ts). Prerendering runs in Node (it reads the database; the hero and the blog's
  // Storage images are resized with sharp by src/integrations/hero-picture.ts and post-images.ts, not by Astro's
  // image service, whose build-time service under this adapter copies the source under each variant's name), so the
  // worker serves files only.
  adapter: cloudflare({ prerenderEnvironment: 'node', imageService: 'compile' }),
  // no sessions (the adapter would otherwise bind a KV namespace for them)
  session: false,
  outDir: ASTRO_OUT_DIR || './dist/site',
  // Astro's incremental build cache lives here (src/integrations/build-report.ts): node_modules/.astro by default,
  // the directory Netlify and Cloudflare Pages keep between builds; a local builder gives each site its own
  cacheDir: ASTRO_CACHE_DIR || './node_modules/.astro',
  site: SITE_URL || 'http://localhost:4321',
  // the built _headers lets only the inline scripts we author run and connects only to this project
  // (scripts/lib/csp-hashes.ts)
  integrations: [
    react(),
    cspScriptHashes({ supabaseUrl: PUBLIC_SUPABASE_URL, clientDirectives: [CLIENT_INTERACTION] }),
    // after cspScriptHashes: the worker's copy of the _headers rules must hold the inline-script hashes
    cloudflarePages(),
    buildReport({
      groups: {
        '/agent/[id]': 'agent',
        '/agents/[zip]': 'zip',
        '/agents/[state]/[city]': 'city',
        '/blog/[slug]': 'article',
        '/blog/category/[slug]': 'category',
      },
      // how many rendered paths the report lists (40 unless set; a test that looks for one path among many raises it)
      listLimit: process.env.BUILD_REPORT_LIST_LIMIT ? Number(process.env.BUILD_REPORT_LIST_LIMIT) : undefined,
    }),
    // the home page's hero as files named by content, the same wherever the page is rendered
    heroPicture('src/assets/hero.png'),
    // the blog's Storage images as WebP at several widths, made while the articles are prerendered
    postImages(),
    // the routes the local builder's patch re-renders the blog through, in its builds only
    rerenderRoutes(process.env.SITE_PATCH_ROUTES === '1'),
    {
      name: 'client-interaction',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) => {
          addClientDirective(CLIENT_INTERACTION)
        },
      },
    },
  ],
  // The stylesheet (Tailwind, site sources only) inlined into each page: no render-blocking request before the first
  // paint, which is what the mobile Lighthouse budget (slow 4G, 150 ms round trips) is most sensitive to; each page
  // keeps only the rules it can use (src/middleware.ts, src/lib/page-css.ts).
  // The static files at the root of the output directory, the on-demand worker in _worker.js/ (Cloudflare Pages'
  // layout). concurrency: a page reads its data when rendered (src/lib/agent-pages.ts joins the reads of the renders
  // in flight into one request), so renders wait on the database, not the CPU.
  build: { inlineStylesheets: 'always', client: './', server: './_worker.js/', concurrency: 16 },
  // a path whose getStaticPaths cacheKey and template are unchanged since the cached build is reused, not rendered
  experimental: { incrementalBuild: true },
  vite: {
    // One CSS target for the client, the worker and the prerender builds (Vite's browser baseline): Astro bundles the
    // layout's stylesheet once for the worker and once for the prerendered pages and gives a prerendered page both
    // unless they are the same text; with each build's default target (a server build's adds no -webkit- prefixes)
    // every prerendered page inlined the Tailwind sheet twice. tests/integration/static-host.test.ts checks it.
    build: { cssTarget: ['chrome111', 'edge111', 'firefox114', 'safari16.4', 'ios16.4'] },
    plugins: [tailwindcss(), pageCssScriptTokens(fileURLToPath(new URL('.', import.meta.url)))],
    resolve: {
      alias: [
        ...aliases,
        // the shared CSV module imports csv-stringify's Node build; the site (browser) takes its browser build
        { find: /^csv-stringify\/sync$/, replacement: 'csv-stringify/browser/esm/sync' },
      ],
    },
  },
})
