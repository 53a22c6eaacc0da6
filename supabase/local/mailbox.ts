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
 * `POST /emails` accepts a Resend-shaped send (see `receiveResendEmail`) so functions mail through the same client
 * locally as in production.
 */
export async function mailboxFetch(pool: pg.Pool, request: Request): Promise<Response> {
  const url = new URL(request.url)
  if (url.pathname === '/emails' && request.method === 'POST') return receiveResendEmail(pool, request)
  if (url.pathname === '/api/v1/messages' && request.method === 'GET') {
    const to = url.searchParams.get('to')
    const { rows } = await pool.query<MailMessage>(
      `select id, sender, recipients, subject, text_body, html_body, attachments, created_at from local_mailbox.messages
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

/**
 * `POST /emails` with Resend's JSON body `{ from, to: string | string[], subject, html?, text?, cc?, bcc?, attachments? }`
 * (https://resend.com/docs/api-reference/emails/send-email): stores the message for every recipient and answers
 * `{ id }` like Resend; a malformed body gets 422 `{ statusCode, name: 'validation_error', message }`. The bearer
 * token is not checked (this is the local catcher).
 */
async function receiveResendEmail(pool: pg.Pool, request: Request): Promise<Response> {
  const invalid = (message: string) =>
    Response.json({ statusCode: 422, name: 'validation_error', message }, { status: 422 })
  const body = (await request.json().catch(() => null)) as Record<string, unknown> | null
  if (!body || typeof body !== 'object') return invalid('The body must be a JSON object.')
  const addresses = (field: string): string[] | null => {
    const value = body[field]
    if (value === undefined) return []
    const list = Array.isArray(value) ? value : [value]
    return list.every((item) => typeof item === 'string' && item.includes('@')) ? (list as string[]) : null
  }
  const to = addresses('to')
  const cc = addresses('cc')
  const bcc = addresses('bcc')
  if (typeof body.from !== 'string' || body.from === '') return invalid('The `from` field is required.')
  if (!to || !cc || !bcc) return invalid('`to`, `cc` and `bcc` must be email addresses or arrays of them.')
  if (to.length === 0) return invalid('The `to` field is required.')
  if (typeof body.subject !== 'string' || body.subject === '') return invalid('The `subject` field is required.')
  const html = typeof body.html === 'string' ? body.html : undefined
  const text = typeof body.text === 'string' ? body.text : undefined
  if (html === undefined && text === undefined) return invalid('Either `html` or `text` is required.')
  const attachments = body.attachments
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
    return invalid('`attachments` must be an array of { filename, content } with base64 content.')
  }
  const { rows } = await pool.query<{ id: number }>(
    'insert into local_mailbox.messages (sender, recipients, subject, text_body, html_body, attachments) values ($1, $2, $3, $4, $5, $6) returning id',
    [
      body.from,
      [...to, ...cc, ...bcc],
      body.subject,
      text ?? null,
      html ?? null,
      attachments === undefined ? null : JSON.stringify(attachments),
    ],
  )
  return Response.json({ id: String(rows[0]!.id) })
}

function page(title: string, body: string): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem}table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}</style>
</head><body>${body}</body></html>`,
    { headers: { 'Content-Type': 'text/html; charset=utf-8' } },
  )
}
