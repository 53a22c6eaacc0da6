import { useMutation, useQueryClient } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { authKeys } from './auth-keys'
import type { LoginCredentials } from './auth-schemas'

/** Signs in with email and password; the error is the GoTrue error (e.g. 'Invalid login credentials'). */
export function useSignInMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (credentials: LoginCredentials) => {
      const { data, error } = await supabase.auth.signInWithPassword(credentials)
      if (error) throw error
      return data.session
    },
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
    mutationFn: async ({ factorId, code }: { factorId: string; code: string }) => {
      const { data, error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code })
      if (error) throw error
      return data
    },
  })
}

/** Signs out, drops every cached auth answer and leaves the admin app for the public site. */
export function useSignOutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      const { error } = await supabase.auth.signOut()
      if (error) throw error
    },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: authKeys.all })
      window.location.assign('/')
    },
  })
}
