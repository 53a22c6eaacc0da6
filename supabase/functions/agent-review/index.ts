/**
 * agent-review: an administrator decides a claim, a correction or a visibility request, and the agent is mailed
 * (contract: ReviewDecisionSchema in @shared/agent-claims.ts). POST with the administrator's bearer token (aal2)
 * and {subject: 'claim' | 'correction' | 'visibility', id, decision, reason?}: a claim is approved, rejected or
 * revoked, a correction or a request accepted or rejected; the reason (required to reject or revoke) is mailed.
 * The decision runs as the administrator (public.decide_agent_claim, decide_agent_correction,
 * decide_agent_visibility_request: RLS, is_admin() and the audit log see them), then every queued decision mail is
 * sent (@shared/agent-claim-mail.ts), including any an earlier call could not send.
 * Answers 200 {decided: the stored row, mailed: n}; 401 without a user, 403 for a non-administrator or an aal1
 * session, 404 unknown id, 409 a decision that does not apply (the message says why), 400 naming the field.
 * verify_jwt = false (supabase/config.toml): Auth checks the token here.
 */
import { sendAgentNotices } from '@shared/agent-claim-mail.ts'
import { rpcFailure, verifiedCaller } from '@shared/agent-claim-server.ts'
import { ReviewDecisionSchema } from '@shared/agent-claims.ts'
import { parseBody, serveFunction } from '@shared/http.ts'
import { mailConfigFromEnv } from '@shared/mail.ts'
import { callerClient, platformEnv, serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'

platformEnv()
const siteUrl = z.url({ error: 'SITE_URL must be the site URL' }).parse(Deno.env.get('SITE_URL'))
const mail = mailConfigFromEnv(Deno.env.toObject())
const admin = serviceClient()

serveFunction({
  name: 'agent-review',
  cors: 'site',
  failureMessage: 'Could not record the decision. Please try again.',
  async handle({ request, body, json }) {
    const input = parseBody(ReviewDecisionSchema, body)
    const user = await verifiedCaller(request)
    const db = callerClient(user.authorization)
    const reason = input.reason || undefined
    const { data, error } =
      input.subject === 'claim'
        ? await db.rpc('decide_agent_claim', { claim: input.id, decision: input.decision, reason })
        : input.subject === 'correction'
          ? await db.rpc('decide_agent_correction', { correction: input.id, decision: input.decision, reason })
          : await db.rpc('decide_agent_visibility_request', { request: input.id, decision: input.decision, reason })
    if (error) rpcFailure(error)
    // the decision stands even when its mail cannot go now: it stays queued for the next call
    const mailed = await sendAgentNotices(admin, mail, siteUrl).catch((failure) => {
      console.error('agent-review: decision mails not sent', failure)
      return 0
    })
    return json({ decided: data, mailed })
  },
})
