import { z } from 'zod'

export const LoginCredentialsSchema = z.object({
  email: z.email({ error: 'Enter a valid email address.' }),
  password: z.string({ error: 'Enter your password.' }).min(1, { error: 'Enter your password.' }),
})

export type LoginCredentials = z.infer<typeof LoginCredentialsSchema>

/**
 * The 6-digit code an authenticator app shows (TOTP, RFC 6238, as GoTrue's MFA verifies it). Spaces are ignored:
 * apps print the code as "123 456", and a pasted code keeps the space.
 */
export const TotpCodeSchema = z.object({
  code: z
    .string()
    .transform((code) => code.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, { error: 'Enter the 6-digit code from your authenticator app.' })),
})

export type TotpCodeInput = z.input<typeof TotpCodeSchema>
export type TotpCode = z.output<typeof TotpCodeSchema>
