// @ts-check
import js from '@eslint/js'
import pluginQuery from '@tanstack/eslint-plugin-query'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    '.data/',
    '.astro/',
    // Deno code (Deno globals, npm:/jsr: specifiers) is checked by `deno lint` / `deno check`: edge functions,
    // function fixtures for tests, and Deno entry files in the Node tree, named deno-*.ts by convention.
    'supabase/functions/',
    'tests/fixtures/functions/',
    '**/deno-*.ts',
    'playwright-report/',
    'test-results/',
    'scratch/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,
  pluginQuery.configs['flat/recommended'],

  {
    // Node by default (configs, scripts, tests, bench, supabase/local); browser code is added below.
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
    },
  },
  {
    files: ['src/**', 'admin/src/**'],
    languageOptions: {
      globals: { ...globals.browser },
    },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // One alias per home: shared rules through @shared/, the site through ~/, the admin through @/, never by climbing
    // folders (tsconfig paths, aliases.ts and supabase/functions/deno.json map them for every tool).
    // Config files are loaded before the aliases exist, so they may climb.
    files: ['**/*.{ts,tsx,mts,cts,js,mjs}'],
    ignores: ['**/*.config.{ts,mjs,js}', 'supabase/local/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(.*/)?supabase/functions/_shared/',
              message: "Import shared rules through '@shared/…', not a relative path.",
            },
            { regex: '^(\\.\\./)+src/', message: "Import site modules through '~/…', not a relative path." },
            { regex: '^(\\.\\./)+admin/src/', message: "Import admin modules through '@/…', not a relative path." },
          ],
        },
      ],
    },
  },
  {
    // The local platform (the Supabase stand-in and the static host's build hook) is a fence: the product reaches it
    // only through the HTTP APIs and commands a hosted deploy uses, and it imports nothing of the product.
    files: ['supabase/local/**/*.{ts,tsx,mts,cts,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(~|@/|(\\.\\./)+(src|admin|scripts|tests|bench)/)',
              message:
                'supabase/local is the platform: it imports nothing from src/, admin/, scripts/, tests/ or bench/ (the product calls it through HTTP APIs and commands).',
            },
          ],
        },
      ],
    },
  },
  {
    // React components, and hooks that live in .ts files (use-*.ts, feature api/*.ts).
    files: ['**/*.{jsx,tsx}', 'src/**/*.ts', 'admin/src/**/*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
])
