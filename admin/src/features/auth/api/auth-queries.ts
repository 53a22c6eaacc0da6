import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { authKeys } from './auth-keys'

export const authQueries = {
  /**
   * The stored session, or null when signed out. Kept current by `listenToAuthChanges`, so it never goes
   * stale on its own.
   */
  session: () =>
    queryOptions({
      queryKey: authKeys.session(),
      queryFn: async () => (await dataOrThrow(supabase.auth.getSession())).session,
      staleTime: Infinity,
    }),

  /**
   * Whether the signed-in user is an admin, as decided by the database function `public.is_admin()` (the
   * same check the RLS policies use). Keyed by user id and assurance level so switching accounts or stepping up
   * with an authenticator code never reuses an answer.
   */
  isAdmin: (userId: string, aal: string) =>
    queryOptions({
      queryKey: authKeys.isAdmin(userId, aal),
      queryFn: async ({ signal }) => (await dataOrThrow(supabase.rpc('is_admin').abortSignal(signal))) === true,
    }),

  /**
   * Whether the user is listed as an administrator (public.user_roles, which RLS lets a user read for themselves),
   * whatever the session's assurance level: an administrator at aal1 without an authenticator app is sent through
   * enrolling one before anything else. Not a permission: only is_admin() (aal2) opens admin data.
   */
  adminRole: (userId: string) =>
    queryOptions({
      queryKey: authKeys.adminRole(userId),
      queryFn: async ({ signal }) =>
        (
          await dataOrThrow(
            supabase.from('user_roles').select('role').eq('user_id', userId).eq('role', 'admin').abortSignal(signal),
          )
        ).length > 0,
    }),
}
