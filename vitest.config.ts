import { defineConfig } from 'vitest/config'

import { aliases } from './aliases.ts'

// Three projects: `unit` (tests beside the code, no stack: no Postgres, no Deno; `npm test -- --unit-only`),
// `components` (the admin's React components, `*.test.tsx` beside them, rendered in jsdom with Testing Library; run
// with the unit project) and `integration` (tests/integration, supabase-js against the throwaway stack that scripts/test.ts or
// tests/support/global-setup.ts starts). Files run in random order (sequence.shuffle) so no file can lean on another's
// leftovers; a failing run prints its seed, and `--sequence.seed=<n>` replays that order.
export default defineConfig({
  // Edge-function code imports npm packages by bare name (supabase/functions/deno.json maps them for Deno), so under
  // vitest the same modules resolve from node_modules and shared function code is unit-tested in Node.
  resolve: { alias: aliases },
  test: {
    exclude: ['node_modules/**', 'dist/**', '.data/**'],
    sequence: { shuffle: { files: true, tests: false } },
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // pure modules: one module graph for all files is safe and saves re-importing zod, ai and sanitize-html per file
          isolate: false,
          include: [
            'src/**/*.test.ts',
            'admin/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            'supabase/**/*.test.ts',
            'tests/support/**/*.test.ts',
          ],
          testTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'components',
          include: ['admin/src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['admin/src/test/setup.ts'],
          // the admin's Supabase client is created on import and needs a URL and a key; no test talks to it
          env: { PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9', PUBLIC_SUPABASE_ANON_KEY: 'component-tests' },
          // typing through user-event on a machine busy with builds can take seconds per test
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          setupFiles: ['tests/support/integration-setup.ts'],
          // a minute per test: the integration files share two cores with the browser-test parts of npm test
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
        },
      },
    ],
  },
})
