/**
 * The site's islands read PUBLIC_SUPABASE_URL and PUBLIC_SUPABASE_ANON_KEY without zod (src/lib/browser-config.ts)
 * because the build checks them: a build with an invalid value must fail and name the variable (src/lib/env.ts,
 * imported by BaseLayout), not ship pages whose islands call a bad address.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
fs.mkdirSync(path.join(root, 'dist'), { recursive: true })
const outDir = fs.mkdtempSync(path.join(root, 'dist', '.env-check-'))

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }))

it('a site build with a non-http(s) PUBLIC_SUPABASE_URL fails and names the variable', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/astro'), ['build'], {
      cwd: root,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        ASTRO_OUT_DIR: outDir,
        // a URL that `new URL()` accepts (astro.config.mjs parses it for image patterns) but the schema refuses
        PUBLIC_SUPABASE_URL: 'ftp://example.com',
        PUBLIC_SUPABASE_ANON_KEY: 'anon',
        FORCE_COLOR: '0',
      },
    })
    let text = ''
    child.stdout.on('data', (chunk) => (text += chunk))
    child.stderr.on('data', (chunk) => (text += chunk))
    child.once('error', reject)
    // 'close', not 'exit': output can still arrive after the exit
    child.once('close', (exitCode) => resolve({ code: exitCode, output: text }))
  })
  expect(code).not.toBe(0)
  expect(output).toContain('Invalid environment: PUBLIC_SUPABASE_URL is invalid')
  expect(fs.existsSync(path.join(outDir, 'index.html'))).toBe(false)
}, 120_000)
