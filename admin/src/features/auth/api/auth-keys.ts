/** Query keys of the auth feature; invalidate through these, never through hand-typed arrays. */
export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
  /** `aal` too: an enrolled admin is an admin only at aal2 (public.is_admin()). */
  isAdmin: (userId: string, aal: string) => [...authKeys.all, 'is-admin', userId, aal] as const,
  /** Whether the user holds the admin role at all (at aal1 too: who must enroll an authenticator app). */
  adminRole: (userId: string) => [...authKeys.all, 'admin-role', userId] as const,
}
