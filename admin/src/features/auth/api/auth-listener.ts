import type { QueryClient } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { authKeys } from './auth-keys'

/**
 * Mirrors GoTrue auth events (sign-in, sign-out in another tab, token refresh) into the session query.
 * Call once at start-up. The callback must stay synchronous: awaiting Supabase calls inside it deadlocks
 * the auth client.
 *
 * @returns a function that stops listening.
 */
export function listenToAuthChanges(queryClient: QueryClient): () => void {
  const { data } = supabase.auth.onAuthStateChange((_event, session) => {
    queryClient.setQueryData(authKeys.session(), session)
  })
  return () => data.subscription.unsubscribe()
}
