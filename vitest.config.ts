import { defineConfig } from 'vitest/config';

// Unit tests live beside the code (*.test.ts); integration tests in tests/integration drive supabase-js against
// the local stack that tests/support/global-setup.ts provides.
export default defineConfig({
  resolve: {
    // Edge-function modules import Deno-style `npm:pkg@version` specifiers; under vitest they resolve to the same
    // packages from node_modules, so shared function code (supabase/functions/_shared) can be unit-tested in Node.
    alias: [{ find: /^npm:((?:@[^/@]+\/)?[^/@]+)(?:@[^/]*)?(\/.*)?$/, replacement: '$1$2' }],
  },
  test: {
    include: ['src/**/*.test.ts', 'admin/src/**/*.test.ts', 'scripts/**/*.test.ts', 'supabase/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', '.data/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
