import { queryOptions } from '@tanstack/react-query'

import { supabase } from '@/lib/supabase'
import { settingsKeys } from './settings-keys'

export const settingsQueries = {
  /** The signed-in user's TOTP factors (verified and not), from GoTrue's user record. */
  factors: () =>
    queryOptions({
      queryKey: settingsKeys.factors(),
      queryFn: async () => {
        const { data, error } = await supabase.auth.mfa.listFactors()
        if (error) throw error
        return data.all.filter((factor) => factor.factor_type === 'totp')
      },
    }),
}
