/**
 * HS256 JSON Web Tokens for the local stand-in, signed with the project's JWT secret exactly as hosted Supabase
 * signs its legacy API keys (anon, service_role) and GoTrue signs access tokens.
 */
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'

/** Claims every Supabase JWT carries; `role` picks the Postgres role (anon, authenticated, service_role). */
export interface SupabaseClaims {
  role: string
  [claim: string]: unknown
}

/** Why a bearer token was refused, in PostgREST's words (PGRST301 invalid, PGRST303 expired). */
export class JwtError extends Error {
  constructor(
    readonly code: 'PGRST301' | 'PGRST303',
    message: string,
  ) {
    super(message)
    this.name = 'JwtError'
  }
}

const encoder = new TextEncoder()

/** Signs `claims` with HS256. `expiresInSeconds` omitted means no `exp` (API keys carry a far-future exp). */
export async function signJwt(secret: string, claims: SupabaseClaims, expiresInSeconds?: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  if (claims.iat === undefined) jwt.setIssuedAt(now)
  if (expiresInSeconds !== undefined) jwt.setExpirationTime(now + expiresInSeconds)
  return jwt.sign(encoder.encode(secret))
}

/**
 * Verifies an HS256 token against the project secret.
 * @throws JwtError PGRST303 when expired, PGRST301 for anything else (not a JWT, bad signature, no role claim).
 */
export async function verifyJwt(secret: string, token: string): Promise<SupabaseClaims> {
  if (token.split('.').length !== 3) {
    throw new JwtError('PGRST301', 'Expected 3 parts in JWT; got ' + token.split('.').length)
  }
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] })
    if (typeof payload.role !== 'string' || payload.role === '') {
      throw new JwtError('PGRST301', 'JWT has no role claim')
    }
    return payload as SupabaseClaims
  } catch (error) {
    if (error instanceof JwtError) throw error
    if (error instanceof joseErrors.JWTExpired) throw new JwtError('PGRST303', 'JWT expired')
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new JwtError('PGRST301', 'JWSError JWSInvalidSignature')
    }
    throw new JwtError('PGRST301', 'JWSError ' + (error instanceof Error ? error.message : String(error)))
  }
}

/** Reads the payload of a JWT without verifying it (only for tokens we just signed or verified). */
export function decodeJwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1]
  if (!part) throw new JwtError('PGRST301', 'Expected 3 parts in JWT')
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
}

/** Generates the legacy anon and service_role API keys for a project secret (10-year expiry, like the CLI's). */
export async function generateApiKeys(secret: string): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const tenYears = 10 * 365 * 24 * 3600
  return {
    anonKey: await signJwt(secret, { iss: 'supabase-local', role: 'anon' }, tenYears),
    serviceRoleKey: await signJwt(secret, { iss: 'supabase-local', role: 'service_role' }, tenYears),
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when there is none. */
export function bearerToken(request: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
}
