/**
 * unsubscribe: stops every email we send to one address (contract and tokens: @shared/unsubscribe.ts).
 *  - POST `List-Unsubscribe=One-Click` (form-encoded, token in the query): a mail client's one-click unsubscribe
 *    (RFC 8058), sent without cookies or credentials; answered directly, never with a redirect.
 *  - POST {token, action?} (JSON): the site's /unsubscribe page, after the visitor pressed Unsubscribe, or
 *    `action: 'resubscribe'` to undo it (the token proves the visitor received a mail at that address).
 *  - GET ?token=: someone (or a link scanner) opened the header's URL: 303 to the site's page, nothing changes.
 * Unsubscribing puts the address hash on the suppression list (public.suppress_email, which also deletes a
 * newsletter subscription); @shared/mail.ts reads that list before every send. Request shell: @shared/http.ts.
 * verify_jwt = false (supabase/config.toml): mail clients send no credentials at all.
 */
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { platformEnv, serviceClient } from '@shared/supabase.ts'
import {
  RESUBSCRIBED_MESSAGE,
  UNSUBSCRIBED_MESSAGE,
  UNSUBSCRIBE_INVALID_MESSAGE,
  UNSUBSCRIBE_TOKEN_PATTERN,
  unsubscribePageUrl,
  verifyUnsubscribeToken,
} from '@shared/unsubscribe.ts'
import { z } from 'zod'

const env = z
  .object({
    SITE_URL: z.url({ error: 'SITE_URL must be the site URL' }),
    REPORT_REQUEST_HMAC_SECRET: z
      .string({ error: 'REPORT_REQUEST_HMAC_SECRET is not set' })
      .min(32, { error: 'REPORT_REQUEST_HMAC_SECRET must be at least 32 characters' }),
  })
  .parse(Deno.env.toObject())
platformEnv()
const admin = serviceClient()

const UnsubscribeSchema = z.object({
  token: z
    .string({ error: 'token must be the code from the unsubscribe link' })
    .regex(UNSUBSCRIBE_TOKEN_PATTERN, { error: 'token must be the code from the unsubscribe link' }),
  action: z.enum(['unsubscribe', 'resubscribe'], { error: 'action must be unsubscribe or resubscribe' }).optional(),
  // RFC 8058's one-click body; any other value is refused by the schema
  'List-Unsubscribe': z.literal('One-Click', { error: 'List-Unsubscribe must be One-Click' }).optional(),
})

serveFunction({
  name: 'unsubscribe',
  cors: 'public',
  methods: ['GET', 'POST'],
  formBodies: true,
  failureMessage: 'Could not unsubscribe you just now. Please try again in a minute.',
  async handle({ request, body, json }) {
    const queryToken = new URL(request.url).searchParams.get('token') ?? ''
    if (request.method === 'GET') {
      const location = UNSUBSCRIBE_TOKEN_PATTERN.test(queryToken)
        ? unsubscribePageUrl(env.SITE_URL, queryToken)
        : `${env.SITE_URL.replace(/\/+$/, '')}/unsubscribe`
      return new Response(null, { status: 303, headers: { Location: location } })
    }
    const oneClick = body?.['List-Unsubscribe'] !== undefined
    const input = parseBody(UnsubscribeSchema, { ...body, token: body?.token ?? queryToken })
    const addressHash = await verifyUnsubscribeToken(env.REPORT_REQUEST_HMAC_SECRET, input.token)
    if (!addressHash) throw new HttpError(400, UNSUBSCRIBE_INVALID_MESSAGE, {}, { token: UNSUBSCRIBE_INVALID_MESSAGE })

    if (input.action === 'resubscribe') {
      const { error } = await admin.from('email_suppressions').delete().eq('email_hash', addressHash)
      if (error) throw error
      return json({ status: 'resubscribed', message: RESUBSCRIBED_MESSAGE })
    }
    const { error } = await admin.rpc('suppress_email', {
      address_hash: addressHash,
      suppression_source: oneClick ? 'one_click' : 'link',
    })
    if (error) throw error
    return json({ status: 'unsubscribed', message: UNSUBSCRIBED_MESSAGE })
  },
})
