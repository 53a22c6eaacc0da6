/**
 * The local mail catcher, like the Supabase CLI's Inbucket/Mailpit: auth emails (sign-up confirmation, password
 * reset) and any other local email land in `local_mailbox.messages`, a person reads them at
 * http://localhost:54324 and tests read them from GET /api/v1/messages.
 */
import type { EmailDriver } from '@supabase/lite'
import type pg from 'pg'

export interface MailMessage {
  id: number
  sender: string
  recipients: string[]
  subject: string
  text_body: string | null
  html_body: string | null
  /** Resend-shaped attachments `{ filename, content (base64), content_type? }`, or null. */
  attachments: { filename: string; content: string; content_type?: string }[] | null
  /** Resend's `headers` of the send (e.g. List-Unsubscribe), or null. */
  headers: Record<string, string> | null
  created_at: string
}

/** An EmailDriver (lite's interface) that stores every message in the mailbox table. */
export function mailboxDriver(pool: pg.Pool, sender = 'Supabase Auth <noreply@localhost>'): EmailDriver {
  return {
    async send({ to, subject, text, html }: { to: string | string[]; subject: string; text?: string; html?: string }) {
      await storeMessage(pool, { sender, recipients: Array.isArray(to) ? to : [to], subject, text, html })
    },
  } as EmailDriver
}

/** Stores one message; used by the auth driver and by local code that sends mail (e.g. lead notifications). */
export async function storeMessage(
  pool: pg.Pool,
  message: { sender: string; recipients: string[]; subject: string; text?: string; html?: string },
): Promise<void> {
  await pool.query(
    'insert into local_mailbox.messages (sender, recipients, subject, text_body, html_body) values ($1, $2, $3, $4, $5)',
    [message.sender, message.recipients, message.subject, message.text ?? null, message.html ?? null],
  )
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!)

/**
 * HTTP handler of the mailbox: `/` lists messages, `/messages/:id` shows one (HTML bodies in a sandboxed iframe),
 * `GET /api/v1/messages?to=` returns JSON newest first, `DELETE /api/v1/messages` empties the box, and
 * `POST /emails` and `POST /emails/batch` accept Resend-shaped sends (see `receiveResendEmail`, `receiveResendBatch`)
 * so functions mail through the same client locally as in production.
 */
export async function mailboxFetch(pool: pg.Pool, request: Request): Promise<Response> {
  const url = new URL(request.url)
  if (url.pathname === '/emails' && request.method === 'POST') return receiveResendEmail(pool, request)
  if (url.pathname === '/emails/batch' && request.method === 'POST') return receiveResendBatch(pool, request)
  if (url.pathname === '/api/v1/messages' && request.method === 'GET') {
    const to = url.searchParams.get('to')
    const { rows } = await pool.query<MailMessage>(
      `select id, sender, recipients, subject, text_body, html_body, attachments, headers, created_at from local_mailbox.messages
       where $1::text is null or exists (select 1 from unnest(recipients) r where lower(r) = lower($1))
       order by id desc limit 200`,
      [to],
    )
    return Response.json(rows)
  }
  if (url.pathname === '/api/v1/messages' && request.method === 'DELETE') {
    await pool.query('delete from local_mailbox.messages')
    return new Response(null, { status: 204 })
  }
  const single = /^\/messages\/(\d+)$/.exec(url.pathname)
  if (single) {
    const { rows } = await pool.query<MailMessage>('select * from local_mailbox.messages where id = $1', [single[1]])
    const message = rows[0]
    if (!message) return new Response('No such message', { status: 404 })
    const body = message.html_body
      ? `<iframe sandbox="" style="width:100%;height:70vh;border:1px solid #ccc" srcdoc="${escapeHtml(message.html_body)}"></iframe>`
      : `<pre>${escapeHtml(message.text_body ?? '')}</pre>`
    return page(
      escapeHtml(message.subject),
      `<p><a href="/">&larr; Inbox</a></p><h1>${escapeHtml(message.subject)}</h1>
       <p>From ${escapeHtml(message.sender)} to ${escapeHtml(message.recipients.join(', '))}, ${escapeHtml(String(message.created_at))}</p>
       ${
         message.headers
           ? `<pre>${escapeHtml(
               Object.entries(message.headers)
                 .map(([name, value]) => `${name}: ${value}`)
                 .join('\n'),
             )}</pre>`
           : ''
       }
       ${message.attachments?.length ? `<p>Attachments: ${message.attachments.map((file) => escapeHtml(file.filename)).join(', ')}</p>` : ''}
       ${body}${message.html_body && message.text_body ? `<h2>Plain text</h2><pre>${escapeHtml(message.text_body)}</pre>` : ''}`,
    )
  }
  if (url.pathname === '/') {
    const { rows } = await pool.query<MailMessage>(
      'select id, sender, recipients, subject, created_at from local_mailbox.messages order by id desc limit 200',
    )
    const list = rows.length
      ? `<table><thead><tr><th>To</th><th>Subject</th><th>Received</th></tr></thead><tbody>${rows
          .map(
            (m) =>
              `<tr><td>${escapeHtml(m.recipients.join(', '))}</td><td><a href="/messages/${m.id}">${escapeHtml(m.subject)}</a></td><td>${escapeHtml(String(m.created_at))}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : '<p>No messages yet. Emails sent by the local stack (sign-up confirmations, password resets, lead alerts) appear here.</p>'
    return page('Local mailbox', `<h1>Local mailbox</h1>${list}`)
  }
  return new Response('Not found', { status: 404 })
}

/** One Resend-shaped email, checked: what the mailbox stores, or the 422 message naming what is wrong. */
type ResendEmail = {
  from: string
  recipients: string[]
  subject: string
  text: string | null
  html: string | null
  attachments: string | null
  headers: string | null
}

function readResendEmail(body: unknown, allowAttachments: boolean): ResendEmail | string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'The body must be a JSON object.'
  const email = body as Record<string, unknown>
  const addresses = (field: string): string[] | null => {
    const value = email[field]
    if (value === undefined) return []
    const list = Array.isArray(value) ? value : [value]
    return list.every((item) => typeof item === 'string' && item.includes('@')) ? (list as string[]) : null
  }
  const to = addresses('to')
  const cc = addresses('cc')
  const bcc = addresses('bcc')
  if (typeof email.from !== 'string' || email.from === '') return 'The `from` field is required.'
  if (!to || !cc || !bcc) return '`to`, `cc` and `bcc` must be email addresses or arrays of them.'
  if (to.length === 0) return 'The `to` field is required.'
  if (typeof email.subject !== 'string' || email.subject === '') return 'The `subject` field is required.'
  const html = typeof email.html === 'string' ? email.html : null
  const text = typeof email.text === 'string' ? email.text : null
  if (html === null && text === null) return 'Either `html` or `text` is required.'
  const attachments = email.attachments
  if (attachments !== undefined && !allowAttachments) return '`attachments` are not supported in a batch.'
  if (
    attachments !== undefined &&
    !(
      Array.isArray(attachments) &&
      attachments.every(
        (item: { filename?: unknown; content?: unknown } | null) =>
          item &&
          typeof item === 'object' &&
          typeof item.filename === 'string' &&
          item.filename !== '' &&
          typeof item.content === 'string',
      )
    )
  ) {
    return '`attachments` must be an array of { filename, content } with base64 content.'
  }
  const headers = email.headers
  if (
    headers !== undefined &&
    !(
      headers !== null &&
      typeof headers === 'object' &&
      !Array.isArray(headers) &&
      Object.values(headers).every((value) => typeof value === 'string')
    )
  ) {
    return '`headers` must be an object of header names to string values.'
  }
  return {
    from: email.from,
    recipients: [...to, ...cc, ...bcc],
    subject: email.subject,
    text,
    html,
    attachments: attachments === undefined ? null : JSON.stringify(attachments),
    headers: headers === undefined ? null : JSON.stringify(headers),
  }
}

async function storeResendEmail(pool: pg.Pool, email: ResendEmail): Promise<string> {
  const { rows } = await pool.query<{ id: number }>(
    'insert into local_mailbox.messages (sender, recipients, subject, text_body, html_body, attachments, headers) values ($1, $2, $3, $4, $5, $6, $7) returning id',
    [email.from, email.recipients, email.subject, email.text, email.html, email.attachments, email.headers],
  )
  return String(rows[0]!.id)
}

const resendInvalid = (message: string) =>
  Response.json({ statusCode: 422, name: 'validation_error', message }, { status: 422 })

/**
 * `POST /emails` with Resend's JSON body `{ from, to: string | string[], subject, html?, text?, cc?, bcc?, headers?,
 * attachments? }`
 * (https://resend.com/docs/api-reference/emails/send-email): stores the message for every recipient and answers
 * `{ id }` like Resend; a malformed body gets 422 `{ statusCode, name: 'validation_error', message }`. The bearer
 * token is not checked (this is the local catcher).
 */
async function receiveResendEmail(pool: pg.Pool, request: Request): Promise<Response> {
  const email = readResendEmail(await request.json().catch(() => null), true)
  if (typeof email === 'string') return resendInvalid(email)
  return Response.json({ id: await storeResendEmail(pool, email) })
}

/**
 * `POST /emails/batch` with Resend's array of up to 100 emails of the same shape, without attachments
 * (https://resend.com/docs/api-reference/emails/send-batch-emails): all or nothing, answered `{ data: [{ id }] }` in
 * order; a malformed email gets 422 naming its index.
 */
async function receiveResendBatch(pool: pg.Pool, request: Request): Promise<Response> {
  const body: unknown = await request.json().catch(() => null)
  if (!Array.isArray(body) || body.length === 0 || body.length > 100)
    return resendInvalid('The body must be an array of 1 to 100 emails.')
  const emails: ResendEmail[] = []
  for (const [index, item] of body.entries()) {
    const email = readResendEmail(item, false)
    if (typeof email === 'string') return resendInvalid(`Email ${index}: ${email}`)
    emails.push(email)
  }
  const data: { id: string }[] = []
  for (const email of emails) data.push({ id: await storeResendEmail(pool, email) })
  return Response.json({ data })
}

function page(title: string, body: string): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem}table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}</style>
</head><body>${body}</body></html>`,
    { headers: { 'Content-Type': 'text/html; charset=utf-8' } },
  )
}
