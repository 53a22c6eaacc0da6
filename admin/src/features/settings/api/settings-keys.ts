/** Query keys of the settings feature; invalidate through these, never through hand-typed arrays. */
export const settingsKeys = {
  all: ['settings'] as const,
  factors: () => [...settingsKeys.all, 'mfa-factors'] as const,
}
