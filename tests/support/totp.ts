/**
 * Authenticator-app codes for tests: RFC 6238 TOTP (SHA-1, 6 digits, 30 s) through `otpauth`, as an app computes
 * them from the secret GoTrue returned when the factor was enrolled.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import * as OTPAuth from 'otpauth'

/** The current code for a base32 TOTP secret. */
export function totpCode(secret: string): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate()
}

/**
 * Enrolls an authenticator app for the client's signed-in user and verifies its first code, which steps the
 * client's session up to aal2 (what every administrator needs).
 * @returns the factor's id and base32 secret. @throws the Auth error when enrolling or verifying fails.
 */
export async function enrollTotp(client: SupabaseClient): Promise<{ factorId: string; secret: string }> {
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Test authenticator' })
  if (enrolled.error) throw enrolled.error
  const { id: factorId, totp } = enrolled.data
  const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: totpCode(totp.secret) })
  if (verified.error) throw verified.error
  return { factorId, secret: totp.secret }
}
