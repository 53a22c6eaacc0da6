/**
 * The local configuration in `.env`: created from `.env.example` on first run with a generated JWT secret and the
 * anon / service_role keys signed with it, reused afterwards, and validated with zod so a missing or malformed
 * value stops start-up with a message naming it.
 */
import { parse as parseDotenv } from 'dotenv'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { generateApiKeys } from '../../supabase/local/jwt.ts'

const port = z.coerce.number().int().min(1).max(65535)

export const LocalEnvSchema = z.object({
  SUPABASE_URL: z.url(),
  SUPABASE_ANON_KEY: z.string().min(20, 'SUPABASE_ANON_KEY must be a JWT'),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(20, 'SUPABASE_SERVICE_ROLE_KEY must be a JWT'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters'),
  SITE_URL: z.url(),
  API_PORT: port.default(54321),
  DB_PORT: port.default(54322),
  MAILBOX_PORT: port.default(54324),
  SITE_PORT: port.default(4321),
  DATABASE_URL: z.url().optional(),
  LOCAL_ADMIN_EMAIL: z.email().default('admin@example.com'),
  LOCAL_ADMIN_PASSWORD: z.string().min(12, 'LOCAL_ADMIN_PASSWORD must be at least 12 characters'),
})
export type LocalEnv = z.infer<typeof LocalEnvSchema>

/** Repository root (scripts/lib/../..). */
export const rootDir = path.resolve(import.meta.dirname, '../..')

/**
 * Reads `.env` (creating it on first run) and overlays process.env for the same names.
 * @throws Error listing every invalid variable.
 */
export async function loadLocalEnv(): Promise<LocalEnv> {
  const envFile = path.join(rootDir, '.env')
  if (!fs.existsSync(envFile)) {
    const template = fs.readFileSync(path.join(rootDir, '.env.example'), 'utf8')
    const jwtSecret = randomBytes(32).toString('base64url')
    const keys = await generateApiKeys(jwtSecret)
    const filled = template
      .replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${jwtSecret}`)
      .replace(/^SUPABASE_ANON_KEY=.*$/m, `SUPABASE_ANON_KEY=${keys.anonKey}`)
      .replace(/^SUPABASE_SERVICE_ROLE_KEY=.*$/m, `SUPABASE_SERVICE_ROLE_KEY=${keys.serviceRoleKey}`)
      .replace(/^LOCAL_ADMIN_PASSWORD=.*$/m, `LOCAL_ADMIN_PASSWORD=${randomBytes(12).toString('base64url')}a7`)
    fs.writeFileSync(envFile, filled, { mode: 0o600 })
    console.log('Wrote .env with a new JWT secret and API keys.')
  }
  const fromFile = parseDotenv(fs.readFileSync(envFile, 'utf8'))
  const merged: Record<string, string | undefined> = { ...fromFile }
  for (const key of Object.keys(LocalEnvSchema.shape)) {
    if (process.env[key]) merged[key] = process.env[key]
  }
  const parsed = LocalEnvSchema.safeParse(merged)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')
    throw new Error(`Invalid configuration in .env:\n${problems}`)
  }
  return parsed.data
}

/** Variables the site and admin builds read (the browser gets the anon key only). */
export function publicBuildEnv(env: LocalEnv): Record<string, string> {
  return {
    PUBLIC_SUPABASE_URL: env.SUPABASE_URL,
    PUBLIC_SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY,
    SITE_URL: env.SITE_URL,
  }
}
