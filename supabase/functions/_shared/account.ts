/**
 * The contract of the `account` edge function: what a signed-in visitor can do with their account that needs more
 * than their own rows (which they read and write through RLS: saved_agents, compare_lists, my_report_requests()).
 * No imports besides zod, so the site, the function and the tests share it.
 *
 * POST /functions/v1/account with `Authorization: Bearer <the user's access token>` and one of
 *   {action: 'export'}                      -> 200 the JSON of everything held about the account (public.account_export)
 *   {action: 'report-pdf', request_id}      -> 200 application/pdf: the agent report of one of the caller's report
 *                                              requests (matched by their confirmed email), with today's figures;
 *                                              404 {error} when it is not theirs or names no listed agent
 *   {action: 'email-status'}                -> 200 {email, unsubscribed_at}: whether the account's address unsubscribed
 *   {action: 'resume-emails'}               -> 200 {email, unsubscribed_at: null}: takes it off the suppression list
 *   {action: 'delete'}                      -> 200 {deleted: true}: the account and everything tied to it
 *                                              (public.delete_account); 409 {error} for an administrator
 * 401 {error: ACCOUNT_SIGN_IN_MESSAGE} without a valid user token; 403 {error} for a report action while the account's
 * email is unconfirmed; 400 {error, errors} for a bad body.
 */
import { z } from 'zod'

export const AccountRequestSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('export') }),
    z.object({ action: z.literal('delete') }),
    z.object({ action: z.literal('email-status') }),
    z.object({ action: z.literal('resume-emails') }),
    z.object({
      action: z.literal('report-pdf'),
      request_id: z.uuid({ error: 'request_id must be the id of one of your report requests' }),
    }),
  ],
  { error: 'action must be one of export, report-pdf, email-status, resume-emails, delete' },
)
export type AccountRequest = z.infer<typeof AccountRequestSchema>

/** The email-status answer: the account's address and when it unsubscribed (ISO time, or null). */
export interface EmailStatus {
  email: string
  unsubscribed_at: string | null
}

/**
 * How a report request of the caller stands (public.my_report_requests' `delivery`): mailed; not sent (an error);
 * waiting for the request's confirmation link; being mailed.
 */
export type ReportDelivery = 'sent' | 'not_sent' | 'awaiting_confirmation' | 'pending'

export const ACCOUNT_SIGN_IN_MESSAGE = 'Please sign in again to manage your account.'
export const ACCOUNT_UNCONFIRMED_MESSAGE = 'Confirm your email address first: the link is in the mail we sent you.'
export const REPORT_NOT_FOUND_MESSAGE = 'There is no report for this request in your account.'
export const ADMIN_DELETE_MESSAGE =
  'An administrator account cannot delete itself here. Ask another administrator to remove your access first.'

/** The file name of a downloaded report: `agent-report-<agent slug>.pdf`. */
export function reportFileName(agentSlug: string): string {
  return `agent-report-${agentSlug || 'agent'}.pdf`
}
