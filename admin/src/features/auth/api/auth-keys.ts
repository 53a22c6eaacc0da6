/** Query keys of the auth feature; invalidate through these, never through hand-typed arrays. */
export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
  isAdmin: (userId: string) => [...authKeys.all, 'is-admin', userId] as const,
}
