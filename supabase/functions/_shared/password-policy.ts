/**
 * The password policy of supabase/config.toml ([auth] minimum_password_length = 10, password_requirements =
 * "letters_digits"; GoTrue caps passwords at 72 bytes), for forms that set a password, so a visitor sees the rule
 * before the auth service refuses with 422 weak_password. The auth service stays the authority.
 */
import { z } from 'zod'

export const PASSWORD_MIN_LENGTH = 10
export const PASSWORD_RULE_TEXT = `At least ${PASSWORD_MIN_LENGTH} characters, with letters and digits.`

export const NewPasswordSchema = z
  .string({ error: 'Please enter a password' })
  .min(PASSWORD_MIN_LENGTH, { error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(72, { error: 'Password must be 72 characters or fewer' })
  .refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), { error: 'Password must contain letters and digits' })
