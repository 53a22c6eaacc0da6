import { defineConfig } from 'vitest/config';

import { aliases } from './aliases.ts';

// Unit tests live beside the code (*.test.ts); integration tests in tests/integration drive supabase-js against
// the local stack that tests/support/global-setup.ts provides.
export default defineConfig({
  // Edge-function code imports npm packages by bare name (supabase/functions/deno.json maps them for Deno), so under
  // vitest the same modules resolve from node_modules and shared function code is unit-tested in Node.
  resolve: { alias: aliases },
  test: {
    include: ['src/**/*.test.ts', 'admin/src/**/*.test.ts', 'scripts/**/*.test.ts', 'supabase/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', '.data/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
