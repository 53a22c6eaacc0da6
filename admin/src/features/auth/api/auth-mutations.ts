import { useMutation, useQueryClient } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { authKeys } from './auth-keys'
import type { LoginCredentials } from './auth-schemas'
import { siteLink } from '@/lib/site-link'

/** Signs in with email and password; the error is the GoTrue error (e.g. 'Invalid login credentials'). */
export function useSignInMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (credentials: LoginCredentials) =>
      (await dataOrThrow(supabase.auth.signInWithPassword(credentials))).session,
    onSuccess: (session) => {
      queryClient.setQueryData(authKeys.session(), session)
    },
  })
}

/**
 * Checks an authenticator-app code against the user's verified TOTP factor (challenge + verify), which steps the
 * session up to aal2; the auth listener stores the new session.
 */
export function useVerifyCodeMutation() {
  return useMutation({
    mutationFn: ({ factorId, code }: { factorId: string; code: string }) =>
      dataOrThrow(supabase.auth.mfa.challengeAndVerify({ factorId, code })),
  })
}

/** Signs out, drops every cached auth answer and leaves the admin app for the public site. */
export function useSignOutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      await dataOrThrow(supabase.auth.signOut().then(({ error }) => ({ data: null, error })))
    },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: authKeys.all })
      window.location.assign(siteLink('/'))
    },
  })
}
