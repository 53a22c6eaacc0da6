import { useMutation, useQueryClient } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { settingsKeys } from './settings-keys'

/** Starts enrolling an authenticator app: a new unverified TOTP factor with its QR code (SVG data URL) and secret. */
export function useEnrollTotpMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      dataOrThrow(
        supabase.auth.mfa.enroll({
          factorType: 'totp',
          friendlyName: `Authenticator ${new Date().toISOString().slice(0, 10)}`,
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.factors() }),
  })
}

/** Finishes enrolling with the first code from the app; the factor becomes verified and the session aal2. */
export function useConfirmTotpMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) =>
      dataOrThrow(supabase.auth.mfa.challengeAndVerify({ factorId, code })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.factors() }),
  })
}

/** Removes a factor (GoTrue requires an aal2 session to remove a verified one). */
export function useUnenrollMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (factorId: string) => dataOrThrow(supabase.auth.mfa.unenroll({ factorId })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.factors() }),
  })
}
