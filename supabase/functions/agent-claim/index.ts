/**
 * agent-claim: a signed-in user claims an agent profile (contract: @shared/agent-claims.ts). POST with the user's
 * `Authorization: Bearer <access token>` (the caller is whoever Auth says it is, never a value in the body) and
 *   {action: 'start', agentId, licenseNumber} -> checks the license number against the agent's MLS record
 *       (public.start_agent_claim), mails a 6-digit code to the email on that record and answers 200
 *       {claimId, sentTo: the masked address, expiresAt}. The code itself is kept only as an HMAC (keyed by
 *       REPORT_REQUEST_HMAC_SECRET), so neither the database nor the caller can read it back.
 *   {action: 'verify', claimId, code} -> 200 {status: 'approved', agentId} when the code is right and in time
 *       (public.verify_agent_claim; the approval is mailed to the account); 400 wrong code (tries left), 410
 *       expired, 429 too many wrong codes, 409 the profile was claimed meanwhile, 404 not their claim.
 *   {action: 'review', agentId, licenseNumber?, message} -> 201 {claimId}: an administrator checks it by hand.
 * Refusals carry the database's message (409 "This profile has already been claimed by another account...", 400 a
 * license number that does not match, ...). Limits per hour: 5 starts per user and 10 per client IP, 3 codes mailed
 * per agent whoever asks, 20 code checks per user and 60 per IP; 5 review requests per user a day (429).
 * The code mail has a fixed subject and first line and carries nothing the claimant typed.
 * verify_jwt = false (supabase/config.toml): the gateway's check breaks with the new JWT signing keys; Auth checks
 * the token here.
 */
import { buildClaimCodeEmail, sendAgentNotices } from '@shared/agent-claim-mail.ts'
import { rpcFailure, verifiedCaller } from '@shared/agent-claim-server.ts'
import {
  AgentClaimRequestSchema,
  CLAIM_CODE_MAX_ATTEMPTS,
  CLAIM_CODE_MINUTES,
  CLAIM_LIMITS,
  CLAIM_RATE_LIMIT_MESSAGE,
  CODE_MAIL_FAILED_MESSAGE,
  type ClaimReviewAnswer,
  type ClaimStartAnswer,
  type ClaimVerifyAnswer,
} from '@shared/agent-claims.ts'
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { mailConfigFromEnv, MailSendError, sendMail } from '@shared/mail.ts'
import { enforceRateLimits, ipValue, rateLimitKey, rateLimitSecret } from '@shared/rate-limit.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import { z } from 'zod'

const secret = rateLimitSecret(Deno.env.get('REPORT_REQUEST_HMAC_SECRET'))
platformEnv()
const siteUrl = z.url({ error: 'SITE_URL must be the site URL' }).parse(Deno.env.get('SITE_URL'))
const mail = mailConfigFromEnv(Deno.env.toObject())
const admin = serviceClient()

/** A uniformly random 6-digit code (rejection sampling over 32-bit values). */
function newCode(): string {
  const buffer = new Uint32Array(1)
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000
  for (;;) {
    crypto.getRandomValues(buffer)
    if (buffer[0]! < limit) return String(buffer[0]! % 1_000_000).padStart(6, '0')
  }
}

/** The stored form of a code: HMAC-SHA-256 of it bound to the claimant (a code is worth nothing to anyone else). */
const codeHash = (userId: string, code: string) => rateLimitKey(secret, 'agent-claim-code', `${userId}:${code}`)

serveFunction({
  name: 'agent-claim',
  cors: 'site',
  failureMessage: 'Could not process your claim. Please try again later.',
  async handle({ request, body, json }) {
    const input = parseBody(AgentClaimRequestSchema, body)
    const user = await verifiedCaller(request)
    const ip = ipValue(request)

    if (input.action === 'start') {
      await enforceRateLimits(
        admin,
        secret,
        [
          { kind: 'claim-start-user', value: user.id, limit: CLAIM_LIMITS.startsPerUser, windowSeconds: 3600 },
          { kind: 'claim-start-ip', value: ip, limit: CLAIM_LIMITS.startsPerIp, windowSeconds: 3600 },
        ],
        CLAIM_RATE_LIMIT_MESSAGE,
      )
      const code = newCode()
      const expiresAt = new Date(Date.now() + CLAIM_CODE_MINUTES * 60_000).toISOString()
      const { data, error } = await admin
        .rpc('start_agent_claim', {
          claimant: user.id,
          agent: input.agentId,
          license_number: input.licenseNumber,
          code_hash: await codeHash(user.id, code),
          code_expires_at: expiresAt,
        })
        .single()
      if (error) rpcFailure(error)
      // counted only for codes about to be mailed: a wrong license number mails nothing
      await enforceRateLimits(
        admin,
        secret,
        [{ kind: 'claim-code-agent', value: input.agentId, limit: CLAIM_LIMITS.codesPerAgent, windowSeconds: 3600 }],
        'Codes for this profile were sent several times this hour. Please wait an hour, or ask for a review instead.',
      )
      try {
        await sendMail(mail, {
          from: mail.from,
          to: [data.agent_email],
          ...buildClaimCodeEmail({ code, agentName: data.agent_name, minutes: CLAIM_CODE_MINUTES }),
        })
      } catch (failure) {
        if (!(failure instanceof MailSendError)) throw failure
        console.error(`agent-claim: code for claim ${data.claim_id} not sent: ${failure.message}`)
        throw new HttpError(502, CODE_MAIL_FAILED_MESSAGE)
      }
      const [local, domain] = data.agent_email.split('@')
      return json({
        claimId: data.claim_id,
        sentTo: `${local!.slice(0, 1)}•••@${domain}`,
        expiresAt,
      } satisfies ClaimStartAnswer)
    }

    if (input.action === 'verify') {
      await enforceRateLimits(
        admin,
        secret,
        [
          { kind: 'claim-verify-user', value: user.id, limit: CLAIM_LIMITS.verifiesPerUser, windowSeconds: 3600 },
          { kind: 'claim-verify-ip', value: ip, limit: CLAIM_LIMITS.verifiesPerIp, windowSeconds: 3600 },
        ],
        CLAIM_RATE_LIMIT_MESSAGE,
      )
      const { data, error } = await admin
        .rpc('verify_agent_claim', {
          claimant: user.id,
          claim: input.claimId,
          code_hash: await codeHash(user.id, input.code),
        })
        .single()
      if (error) rpcFailure(error)
      switch (data.outcome) {
        case 'approved':
          await sendAgentNotices(admin, mail, siteUrl).catch((failure) =>
            console.error('agent-claim: notices not sent', failure),
          )
          return json({ status: 'approved', agentId: data.agent_id! } satisfies ClaimVerifyAnswer)
        case 'wrong_code':
          throw new HttpError(
            400,
            `That code is not right. You have ${data.attempts_left} ${data.attempts_left === 1 ? 'try' : 'tries'} left.`,
            {},
            { code: 'That code is not right.' },
          )
        case 'too_many_attempts':
          throw new HttpError(
            429,
            `That code was wrong ${CLAIM_CODE_MAX_ATTEMPTS} times. Ask for a new code and try again.`,
          )
        case 'expired':
          throw new HttpError(410, 'This code has expired. Ask for a new code.')
        case 'claimed_by_other':
          throw new HttpError(
            409,
            'This profile has already been claimed by another account. If you are this agent, ask for a review and we will check it by hand.',
          )
        case 'holds_other_profile':
          throw new HttpError(
            409,
            'Your account already holds the profile of another agent: one account can claim one profile.',
          )
        case 'closed':
          throw new HttpError(409, 'This claim was closed. Start a new claim.')
        default:
          throw new HttpError(404, 'No claim of yours has this id.')
      }
    }

    await enforceRateLimits(
      admin,
      secret,
      [{ kind: 'claim-review-user', value: user.id, limit: CLAIM_LIMITS.reviewsPerUserPerDay, windowSeconds: 86_400 }],
      'You have asked for several reviews today. Please wait until tomorrow.',
    )
    const { data, error } = await admin.rpc('request_agent_claim_review', {
      claimant: user.id,
      agent: input.agentId,
      license_number: input.licenseNumber ?? '',
      message: input.message,
    })
    if (error) rpcFailure(error)
    return json({ claimId: data } satisfies ClaimReviewAnswer, 201)
  },
})
