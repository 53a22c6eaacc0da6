/**
 * The agent report, delivered: for one stored report request whose address is confirmed, renders the agent's PDF
 * (./agent-report.ts) and mails it to the visitor with a link to the agent page, then stamps
 * report_requests.report_sent_at, or report_error with the reason. Called by confirm-report when the confirmation
 * link is used, and by notify-new-lead (the new-lead database webhook) for a request confirmed when it was made; a
 * retried call does not mail twice (report_sent_at is read first). The mail's subject and first line are ours (the
 * agent's name comes from the database); nothing the visitor typed appears in them.
 */
import { renderAgentReportPdf } from './agent-report.ts'
import { loadAgentReportData } from './agent-report-data.ts'
import { escapeHtml } from './html.ts'
import { type MailConfig, MailSendError, sendMail, singleLine, toBase64 } from './mail.ts'
import { slugify } from './slug.ts'
import type { Db } from './supabase.ts'

/** The report_requests columns the delivery needs. */
export interface ReportLead {
  id: string
  email: string
  agent_id: string | null
}

export type ReportDelivery = { sent: true; id: string } | { sent: false; reason: string }

/** The reason stored when a request names no listed agent. */
export const NO_AGENT_REASON = 'The request names no listed agent, so there is no report to send.'

/**
 * Sends the report for `lead` (never throws: failures are stored in report_error and returned).
 * @param siteUrl the public site's origin, for the agent page link.
 */
export async function deliverAgentReport(
  db: Db,
  mail: MailConfig,
  lead: ReportLead,
  siteUrl: string,
): Promise<ReportDelivery> {
  const record = async (
    outcome: { report_sent_at: string; report_error: null } | { report_sent_at: null; report_error: string },
  ) => {
    const { error } = await db.from('report_requests').update(outcome).eq('id', lead.id)
    if (error) console.error(`agent report: could not record the outcome for ${lead.id}: ${error.message}`)
  }
  try {
    const { data: row, error } = await db
      .from('report_requests')
      .select('report_sent_at')
      .eq('id', lead.id)
      .maybeSingle()
    if (error) throw new Error(`Could not read the request: ${error.message}`)
    if (row?.report_sent_at) return { sent: false, reason: 'The report was already sent.' }
    const data = lead.agent_id
      ? await loadAgentReportData(db, lead.agent_id, siteUrl, new Date().toISOString().slice(0, 10))
      : null
    if (!data) {
      await record({ report_sent_at: null, report_error: NO_AGENT_REASON })
      return { sent: false, reason: NO_AGENT_REASON }
    }
    const pdf = await renderAgentReportPdf(data)
    const url = escapeHtml(data.agent.url)
    const result = await sendMail(mail, {
      from: mail.from,
      to: [lead.email],
      subject: singleLine(`Your AgentInsight report: ${data.agent.name}`),
      // a fixed greeting: nothing the visitor typed opens a mail we send
      html: `<p>Hello,</p><p>Your performance report for <strong>${escapeHtml(data.agent.name)}</strong> is attached as a PDF.</p><p>See the live profile: <a href="${url}">${url}</a></p><p>AgentInsight</p>`,
      text: `Hello,\n\nYour performance report for ${data.agent.name} is attached as a PDF.\n\nSee the live profile: ${data.agent.url}\n\nAgentInsight\n`,
      attachments: [
        {
          filename: `agent-report-${slugify(data.agent.name) || 'agent'}.pdf`,
          content: toBase64(pdf),
          content_type: 'application/pdf',
        },
      ],
    })
    await record({ report_sent_at: new Date().toISOString(), report_error: null })
    return { sent: true, id: result.id }
  } catch (error) {
    const reason = error instanceof MailSendError ? error.message : 'The report could not be made (internal error).'
    console.error(`agent report for ${lead.id} failed`, error)
    await record({ report_sent_at: null, report_error: reason.slice(0, 2000) })
    return { sent: false, reason }
  }
}
