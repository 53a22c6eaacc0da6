import path from 'node:path'
import { fileURLToPath } from 'node:url'

import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, loadEnv, type Plugin } from 'vite'

import { aliases } from '../aliases.ts'
import { parsePublicEnv } from '../supabase/functions/_shared/public-env.ts'

const adminDir = fileURLToPath(new URL('.', import.meta.url))
const repoRoot = path.resolve(adminDir, '..')

/**
 * The built admin's own CSP: scripts only from its bundles ('self'), no inline script at all. It narrows the
 * header CSP of public/_headers (which allows hashed inline scripts for the public site). Build only: the dev
 * server injects an inline React Refresh preamble.
 */
const adminCsp = (): Plugin => ({
  name: 'admin-csp',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content: "script-src 'self'; object-src 'none'; base-uri 'self'",
      },
      injectTo: 'head-prepend',
    },
  ],
})

// The admin SPA lives in admin/ but shares the repository's .env and build output folder with the site.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, repoRoot, '')
  // Fail the build (or dev server start) now rather than ship a bundle that throws on every page load.
  parsePublicEnv({
    PUBLIC_SUPABASE_URL: env.PUBLIC_SUPABASE_URL,
    PUBLIC_SUPABASE_ANON_KEY: env.PUBLIC_SUPABASE_ANON_KEY,
  })

  return {
    root: adminDir,
    base: '/admin/',
    envDir: repoRoot,
    envPrefix: ['PUBLIC_'],
    // The site already serves public/ (favicon, robots.txt) at the root; don't copy it into /admin/.
    publicDir: false,
    plugins: [react(), tailwindcss(), adminCsp()],
    resolve: { alias: aliases },
    build: {
      outDir: env.ADMIN_OUT_DIR ? path.resolve(repoRoot, env.ADMIN_OUT_DIR) : path.join(repoRoot, 'dist/admin'),
      emptyOutDir: true,
    },
  }
})
