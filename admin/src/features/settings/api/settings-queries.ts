import { queryOptions } from '@tanstack/react-query'

import { dataOrThrow, supabase } from '@/lib/supabase'
import { settingsKeys } from './settings-keys'

export const settingsQueries = {
  /** The signed-in user's TOTP factors (verified and not), from GoTrue's user record. */
  factors: () =>
    queryOptions({
      queryKey: settingsKeys.factors(),
      queryFn: async () =>
        (await dataOrThrow(supabase.auth.mfa.listFactors())).all.filter((factor) => factor.factor_type === 'totp'),
    }),
}
