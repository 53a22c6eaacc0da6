import type { Factor, Session } from '@supabase/supabase-js'

/** The session's authenticator assurance: GoTrue's `aal` claim now, and what the user's factors allow. */
export interface Assurance {
  currentLevel: 'aal1' | 'aal2'
  nextLevel: 'aal1' | 'aal2'
  /** The verified TOTP factor a code is checked against, when there is one. */
  totpFactor: Factor | null
}

/**
 * Reads the assurance level from a session the way supabase-js's getAuthenticatorAssuranceLevel does (the access
 * token's `aal` claim and the user's verified factors), synchronously, so screens can decide without a request.
 */
export function assuranceOf(session: Session): Assurance {
  let currentLevel: Assurance['currentLevel'] = 'aal1'
  try {
    const payload = JSON.parse(atob(session.access_token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
      aal?: string
    }
    if (payload.aal === 'aal2') currentLevel = 'aal2'
  } catch {
    currentLevel = 'aal1'
  }
  const totpFactor =
    (session.user.factors ?? []).find((factor) => factor.factor_type === 'totp' && factor.status === 'verified') ?? null
  return { currentLevel, nextLevel: totpFactor ? 'aal2' : currentLevel, totpFactor }
}

/**
 * True when an administrator's session (`isAdministrator`: they hold the admin role) has no verified factor to step
 * up with: every administrator works at aal2, so they must enroll an authenticator app before anything else.
 */
export function needsEnrollment(session: Session | null | undefined, isAdministrator: boolean | undefined): boolean {
  if (!session || isAdministrator !== true) return false
  const { currentLevel, totpFactor } = assuranceOf(session)
  return currentLevel !== 'aal2' && totpFactor === null
}

/** True when the user has a verified factor but this session has not been stepped up with a code yet. */
export function needsSecondFactor(session: Session | null | undefined): boolean {
  if (!session) return false
  const { currentLevel, nextLevel } = assuranceOf(session)
  return nextLevel === 'aal2' && currentLevel !== 'aal2'
}
