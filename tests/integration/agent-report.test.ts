/**
 * The agent report, delivered: a valid report request (request-report, as the site's Get Report dialog sends it)
 * mails a confirmation link; confirming it (confirm-report, as the site's /report/confirm page posts it) renders the
 * PDF (pdf-lib, _shared/agent-report-delivery.ts) and mails it with the attachment to the visitor's address (local
 * mailbox, Resend-shaped attachments); report_requests.report_sent_at is stamped. The PDF's text is extracted with
 * pdf.js and compared with the database. The time from confirmation to mail is printed (figures are not asserted:
 * timings belong in bench/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailTo, sql, testEnv, uniqueEmail } from '../support/env.ts'
import { refreshAgentMetrics, testData } from '../support/factories.ts'
import { pdfText } from '../support/pdf-text.ts'
import { formatDate, formatPercent } from '@shared/format.ts'

async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const data = testData('agent-report')
let agentId = ''

beforeAll(async () => {
  const zip = await data.zip()
  const place = { city: 'Pdfton', state: 'MA', zip }
  const mlsId = data.unique('REPORT').replace(/\s+/g, '-')
  agentId = await data.agent({
    name: data.unique('Regina Report'),
    brokerage: 'Report Realty',
    licenseNumber: 'MA-777',
    mlsId,
    ...place,
  })
  await data.sales([
    ...Array.from({ length: 6 }, (_, index) => ({
      agentId,
      address: `${10 + index} Report St`,
      ...place,
      listPrice: 500_000 + index * 10_000,
      salePrice: 505_000 + index * 7_000,
      daysAgo: 5 + index * 9,
      daysOnMarket: 12 + index,
      status: 'sold',
    })),
    // one sale on the buyer side: another (unknown) agent listed it, Regina brought the buyer
    {
      address: '77 Buyer Way',
      ...place,
      listPrice: 610_000,
      salePrice: 615_000,
      daysAgo: 3,
      daysOnMarket: 9,
      status: 'sold',
      listAgentMlsId: data.unique('OTHER').replace(/\s+/g, '-'),
      buyerAgentMlsId: mlsId,
    },
  ])
  await refreshAgentMetrics()
})

afterAll(() => data.cleanup())

/** Posts a report request from `ip` (the gateway's hop) and answers its status. */
async function requestReport(body: Record<string, unknown>, ip: string): Promise<number> {
  const response = await fetch(`${testEnv.url}/functions/v1/request-report`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
      'X-Forwarded-For': ip,
    },
    body: JSON.stringify(body),
  })
  return response.status
}

/** Waits for the confirmation email to `email` and posts its token to confirm-report, as the site's page does. */
async function confirmFromMail(email: string): Promise<Response> {
  const mail = await waitFor(
    async () => (await mailTo(email)).find((item) => /\/report\/confirm\?token=/.test(item.text_body ?? '')),
    'the confirmation email',
  )
  const token = /\/report\/confirm\?token=([0-9a-f]{64})/.exec(mail.text_body ?? '')![1]
  return fetch(`${testEnv.url}/functions/v1/confirm-report`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      apikey: testEnv.anonKey,
      Authorization: `Bearer ${testEnv.anonKey}`,
    },
    body: JSON.stringify({ token }),
  })
}

describe('agent report email', () => {
  it('mails a PDF whose text carries the agent, both sides with their figures, the sales behind them and the methodology', async () => {
    const email = uniqueEmail('report')
    const [agent] = await sql<{
      name: string
      median: number
      listing_sales: number
      buyer_sales: number
      data_date: string
    }>(
      `select a.name, f.sale_to_list_median::float8 as median, f.listing_sales, f.buyer_sales, f.data_date::text
         from public.agents a join public.agent_figures f on f.agent_id = a.id where a.id = $1`,
      [agentId],
    )
    expect([agent!.listing_sales, agent!.buyer_sales]).toEqual([6, 1])

    const status = await requestReport(
      { full_name: 'Pat Visitor', email, agent_id: agentId, agent_name: agent!.name, agent_location: 'Pdfton, MA' },
      `198.51.100.${Math.floor(Math.random() * 200) + 1}`,
    )
    expect(status).toBe(201)
    const started = Date.now()
    const confirmed = await confirmFromMail(email)
    expect(confirmed.status).toBe(200)
    expect(await confirmed.json()).toEqual({
      status: 'sent',
      message: 'Thanks, your email is confirmed. The report is on its way to your inbox.',
    })

    const message = await waitFor(
      async () => (await mailTo(email)).find((item) => item.attachments?.length),
      'the report email',
    )
    console.log(`agent report: confirmation to mail in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    expect(message.subject).toBe(`Your AgentInsight report: ${agent!.name}`)
    expect(message.text_body?.split('\n')[0]).toBe('Hello,')
    expect(message.text_body).toContain(`See the live profile: http://localhost:4321/agent/${agentId}`)
    expect(message.attachments).toHaveLength(1)
    const [file] = message.attachments!
    expect(file!.filename).toBe(`agent-report-regina-report-${data.tag}.pdf`)
    expect(file!.content_type).toBe('application/pdf')

    const bytes = new Uint8Array(Buffer.from(file!.content, 'base64'))
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-')
    const text = await pdfText(bytes)
    expect(text).toContain(agent!.name)
    expect(text).toContain('Sale-to-list (median)')
    expect(text).toContain(formatPercent(agent!.median))
    expect(text).toContain('Report Realty')
    for (const heading of ['Listing side', 'Buyer side', 'Both sides', 'Sales behind the figures'])
      expect(text).toContain(heading)
    // the sales behind the figures, with the role on each: six listings and the buyer side of 77 Buyer Way
    expect(text).toContain('10 Report St')
    expect(text).toContain('77 Buyer Way')
    expect(text).toContain('Buyer agent')
    expect(text).toContain(`Data as of ${formatDate(agent!.data_date)}`)
    expect(text).toContain('methodology v4')
    expect(text).toContain('http://localhost:4321/methodology')

    const [row] = await sql<{ report_sent_at: Date | null; report_error: string | null }>(
      'select report_sent_at, report_error from public.report_requests where email = $1',
      [email],
    )
    expect(row!.report_error).toBeNull()
    expect(row!.report_sent_at).toBeInstanceOf(Date)
  })

  it('records why nothing was sent when the request names no agent', async () => {
    const email = uniqueEmail('noagent')
    expect(
      await requestReport({ full_name: 'No Agent', email }, `203.0.113.${Math.floor(Math.random() * 200) + 1}`),
    ).toBe(201)
    const confirmed = await confirmFromMail(email)
    expect(await confirmed.json()).toEqual({
      status: 'not_sent',
      message: 'The request names no listed agent, so there is no report to send.',
    })
    const row = await waitFor(async () => {
      const [found] = await sql<{ report_error: string | null; report_sent_at: Date | null }>(
        'select report_error, report_sent_at from public.report_requests where email = $1',
        [email],
      )
      return found?.report_error ? found : undefined
    }, 'the recorded outcome')
    expect(row.report_error).toBe('The request names no listed agent, so there is no report to send.')
    expect(row.report_sent_at).toBeNull()
    // the confirmation email only: no report
    expect((await mailTo(email)).map((item) => item.subject)).toEqual([
      'Confirm your email to receive your AgentInsight report',
    ])
  })
})
