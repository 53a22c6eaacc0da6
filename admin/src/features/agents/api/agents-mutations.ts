import { useMutation, useQueryClient } from '@tanstack/react-query'
import { FunctionsHttpError } from '@supabase/supabase-js'
import { z } from 'zod'

import { supabase } from '@/lib/supabase'
import { auditKeys } from '@/features/audit/api/audit-keys'
import type { ReviewDecision } from '@shared/agent-claims.ts'
import { agentReviewKeys } from './agents-keys'

/**
 * Sends a decision to the agent-review function (it decides as this administrator and mails the agent).
 * @throws Error with the function's own message (e.g. 'This profile is already claimed by another account: revoke
 * that claim first.') on a 4xx/5xx.
 */
export async function decide(decision: ReviewDecision): Promise<{ mailed: number }> {
  const { data, error } = await supabase.functions.invoke('agent-review', { body: decision })
  if (error) {
    if (error instanceof FunctionsHttpError) {
      const payload: unknown = await (error.context as Response).json().catch(() => null)
      const parsed = z.object({ error: z.string() }).safeParse(payload)
      throw new Error(parsed.success ? parsed.data.error : 'Could not record the decision.')
    }
    throw new Error(error.message)
  }
  return z.object({ mailed: z.number() }).parse(data)
}

/** Decides a claim, correction or visibility request; every queue, the trail and the audit log refresh. */
export function useDecideMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: decide,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: agentReviewKeys.all }),
        queryClient.invalidateQueries({ queryKey: auditKeys.all }),
      ]),
  })
}
