import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')

function deployCheck(contents: string) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-')), '.env.production')
  fs.writeFileSync(file, contents)
  const result = spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['scripts/deploy-check.ts', file], {
    cwd: root,
    encoding: 'utf8',
  })
  fs.rmSync(path.dirname(file), { recursive: true, force: true })
  return result
}

const complete = [
  'PROJECT_REF=abcdefghijklmnopqrst',
  'PUBLIC_SUPABASE_URL=https://abcdefghijklmnopqrst.supabase.co',
  'PUBLIC_SUPABASE_ANON_KEY=sb_publishable_abc',
  'SITE_URL=https://agents.example.com',
  'MAIL_API_URL=https://api.resend.com',
  'MAIL_API_KEY=re_123',
  'MAIL_FROM=Agent Insight <leads@example.com>',
  'REPORT_REQUEST_HMAC_SECRET=0123456789abcdef0123456789abcdef',
  'SITE_BUILD_HOOK_URL=https://api.netlify.com/build_hooks/abc',
].join('\n')

describe('npm run deploy:check', () => {
  it('passes a complete production file', () => {
    const result = deployCheck(complete)
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('is ready for production.')
  })

  it('checks the admin origin: its own origin, listed in CORS_ALLOWED_ORIGINS', () => {
    const sameOrigin = deployCheck(`${complete}\nADMIN_URL=https://agents.example.com`)
    expect(sameOrigin.status).not.toBe(0)
    expect(sameOrigin.stdout + sameOrigin.stderr).toContain('ADMIN_URL must be an origin of its own')
    const noCors = deployCheck(`${complete}\nADMIN_URL=https://admin.example.com`)
    expect(noCors.stdout + noCors.stderr).toContain('CORS_ALLOWED_ORIGINS must list https://admin.example.com')
    const ready = deployCheck(
      `${complete}\nADMIN_URL=https://admin.example.com\nCORS_ALLOWED_ORIGINS=https://admin.example.com`,
    )
    expect(ready.status).toBe(0)
  })

  it('fails naming a localhost URL and a missing secret', () => {
    const result = deployCheck(
      complete
        .replace('SITE_URL=https://agents.example.com', 'SITE_URL=http://localhost:4321')
        .replace(/^MAIL_API_KEY=.*$/m, ''),
    )
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('2 problem(s)')
    expect(result.stderr).toContain(
      '  - MAIL_API_KEY is missing: notify-new-lead fails at start-up: no new-lead emails\n',
    )
    expect(result.stderr).toContain(
      '  - SITE_URL points at localhost, which hosted Supabase and the static host cannot reach\n',
    )
  })
})
