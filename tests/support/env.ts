/**
 * Typed access to the test stack from inside tests, plus small helpers to create users and clients.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '@shared/database.types.ts'
import type { MailMessage } from '../../supabase/local/mailbox.ts'
import { sql } from './sql.ts'
import { enrollTotp } from './totp.ts'

export { sql }

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the tests through \`npm test\` or vitest's global setup`)
  return value
}

export const testEnv = {
  get url() {
    return required('TEST_SUPABASE_URL')
  },
  get anonKey() {
    return required('TEST_SUPABASE_ANON_KEY')
  },
  get serviceRoleKey() {
    return required('TEST_SUPABASE_SERVICE_ROLE_KEY')
  },
  get jwtSecret() {
    return required('TEST_JWT_SECRET')
  },
  get databaseUrl() {
    return required('TEST_DATABASE_URL')
  },
  get mailboxUrl() {
    return required('TEST_MAILBOX_URL')
  },
}

/** A supabase-js client without session persistence (each test gets its own). */
export function anonClient(): SupabaseClient<Database> {
  return createClient<Database>(testEnv.url, testEnv.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
}

export function serviceClient(): SupabaseClient<Database> {
  return createClient<Database>(testEnv.url, testEnv.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  })
}

let counter = 0
const issuedEmails: string[] = []
/** A unique example.com address for a test user; a user signed up with it is deleted after the test file. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1
  const email = `${prefix}-${Date.now()}-${process.pid}-${counter}@example.com`
  issuedEmails.push(email)
  return email
}

/** The password of every test user: meets supabase/config.toml's policy (10+ characters, letters and digits). */
export const TEST_PASSWORD = 'correct-horse-battery-42'

/**
 * Creates a confirmed user through the admin API (POST /auth/v1/admin/users with the service-role key), the way an
 * operator would: sign-up needs an email confirmation first. @returns the user's id.
 */
export async function createConfirmedUser(
  email: string,
  password = TEST_PASSWORD,
  metadata: Record<string, unknown> = {},
): Promise<string> {
  const { data, error } = await serviceClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: metadata,
  })
  if (error) throw error
  return data.user.id
}

/**
 * Creates a confirmed user and returns a client signed in as them; `admin` also lists them in user_roles and, as every
 * administrator must, enrolls an authenticator app and steps the session up to aal2 with its code (`totpSecret`
 * computes further codes). `aal1: true` leaves an administrator at the password step (no factor, session aal1). The
 * user is deleted after the test file (tests/support/integration-setup.ts calls `deleteCreatedUsers`).
 */
export async function signedInClient(
  options: { admin?: boolean; aal1?: boolean; metadata?: Record<string, unknown> } = {},
) {
  const client = anonClient()
  const email = uniqueEmail(options.admin ? 'admin' : 'user')
  const password = TEST_PASSWORD
  const userId = await createConfirmedUser(email, password, options.metadata ?? {})
  if (options.admin) await sql(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [userId])
  const { error } = await client.auth.signInWithPassword({ email, password })
  if (error) throw error
  const totpSecret = options.admin && !options.aal1 ? (await enrollTotp(client)).secret : null
  return { client, email, password, userId, totpSecret }
}

/**
 * The local mailbox's messages to `address`, newest first (GET /api/v1/messages?to=).
 * @throws Error when the mailbox does not answer 200.
 */
export async function mailTo(address: string): Promise<MailMessage[]> {
  const response = await fetch(`${testEnv.mailboxUrl}/api/v1/messages?to=${encodeURIComponent(address)}`)
  if (!response.ok) throw new Error(`The mailbox answered HTTP ${response.status}`)
  return (await response.json()) as MailMessage[]
}

/** Deletes the users signed up in this test file with a `uniqueEmail` address (their roles and sessions go too). */
export async function deleteCreatedUsers(): Promise<void> {
  const emails = issuedEmails.splice(0)
  if (emails.length > 0) await sql('delete from auth.users where email = any($1::text[])', [emails])
}
