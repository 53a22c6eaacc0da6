/** Query keys of the auth feature; invalidate through these, never through hand-typed arrays. */
export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
  /** `aal` too: an enrolled admin is an admin only at aal2 (public.is_admin()). */
  isAdmin: (userId: string, aal: string) => [...authKeys.all, 'is-admin', userId, aal] as const,
}
