/**
 * account: the /account page's actions that need the service role (contract: @shared/account.ts): export everything
 * held about the caller, download the PDF of one of their report requests again, see and lift their email
 * unsubscription, and delete the account with everything tied to it. The caller is whoever Auth says the bearer
 * token belongs to (getUser), never a value in the body; reports are theirs when made with their confirmed email.
 * Request shell: @shared/http.ts; CORS only for the site's origin. verify_jwt = false (supabase/config.toml): the
 * gateway's check breaks with the new JWT signing keys, so Auth checks the token here.
 */
import {
  ACCOUNT_SIGN_IN_MESSAGE,
  ACCOUNT_UNCONFIRMED_MESSAGE,
  ADMIN_DELETE_MESSAGE,
  AccountRequestSchema,
  REPORT_NOT_FOUND_MESSAGE,
  reportFileName,
} from '@shared/account.ts'
import { loadAgentReportData } from '@shared/agent-report-data.ts'
import { renderAgentReportPdf } from '@shared/agent-report.ts'
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { slugify } from '@shared/slug.ts'
import { callerClient, platformEnv, serviceClient } from '@shared/supabase.ts'
import { emailHash } from '@shared/unsubscribe.ts'
import { z } from 'zod'

const env = z.object({ SITE_URL: z.url({ error: 'SITE_URL must be the site URL' }) }).parse(Deno.env.toObject())
platformEnv()
const admin = serviceClient()

/** The caller's account, from Auth; 401 when the token is missing, expired or not a user's. */
async function caller(request: Request) {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  if (!token) throw new HttpError(401, ACCOUNT_SIGN_IN_MESSAGE)
  const { data, error } = await callerClient(`Bearer ${token}`).auth.getUser(token)
  if (error || !data.user?.email) throw new HttpError(401, ACCOUNT_SIGN_IN_MESSAGE)
  return { id: data.user.id, email: data.user.email, confirmed: Boolean(data.user.email_confirmed_at) }
}

async function emailStatus(email: string) {
  const { data, error } = await admin
    .from('email_suppressions')
    .select('created_at')
    .eq('email_hash', await emailHash(email))
    .maybeSingle()
  if (error) throw error
  return { email, unsubscribed_at: data?.created_at ?? null }
}

serveFunction({
  name: 'account',
  cors: 'site',
  failureMessage: 'Something went wrong with your account request. Please try again.',
  async handle({ request, body, json, corsHeaders }) {
    const input = parseBody(AccountRequestSchema, body)
    const user = await caller(request)

    switch (input.action) {
      case 'export': {
        const { data, error } = await admin.rpc('account_export', { target: user.id })
        if (error) throw error
        return json(data)
      }
      case 'email-status':
        return json(await emailStatus(user.email))
      case 'resume-emails': {
        if (!user.confirmed) throw new HttpError(403, ACCOUNT_UNCONFIRMED_MESSAGE)
        const { error } = await admin
          .from('email_suppressions')
          .delete()
          .eq('email_hash', await emailHash(user.email))
        if (error) throw error
        return json(await emailStatus(user.email))
      }
      case 'report-pdf': {
        if (!user.confirmed) throw new HttpError(403, ACCOUNT_UNCONFIRMED_MESSAGE)
        const { data: lead, error } = await admin
          .from('report_requests')
          .select('id, email, agent_id, lead_type, anonymized_at')
          .eq('id', input.request_id)
          .maybeSingle()
        if (error) throw error
        const theirs =
          lead &&
          lead.lead_type === 'report' &&
          lead.anonymized_at === null &&
          lead.email.trim().toLowerCase() === user.email.trim().toLowerCase()
        if (!theirs || !lead.agent_id) throw new HttpError(404, REPORT_NOT_FOUND_MESSAGE)
        const data = await loadAgentReportData(
          admin,
          lead.agent_id,
          env.SITE_URL,
          new Date().toISOString().slice(0, 10),
        )
        if (!data) throw new HttpError(404, REPORT_NOT_FOUND_MESSAGE)
        const pdf = await renderAgentReportPdf(data)
        return new Response(pdf as BodyInit, {
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="${reportFileName(slugify(data.agent.name))}"`,
            'Cache-Control': 'private, no-store',
            // so the site may read the file
            ...corsHeaders,
          },
        })
      }
      case 'delete': {
        const { data: roles, error: roleError } = await admin.from('user_roles').select('role').eq('user_id', user.id)
        if (roleError) throw roleError
        if (roles.length > 0) throw new HttpError(409, ADMIN_DELETE_MESSAGE)
        const { error } = await admin.rpc('delete_account', { target: user.id })
        if (error) throw error
        return json({ deleted: true })
      }
    }
  },
})
