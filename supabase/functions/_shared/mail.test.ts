import { describe, expect, it } from 'vitest'
import {
  mailConfigFromEnv,
  mailTransportFromEnv,
  MailSendError,
  MailSuppressedError,
  sendMail,
  singleLine,
} from './mail.ts'
import { emailHash, verifyUnsubscribeToken } from './unsubscribe.ts'

const platform = {
  SUPABASE_URL: 'https://ref.supabase.test',
  SUPABASE_ANON_KEY: 'anon-key',
  SUPABASE_SERVICE_ROLE_KEY: 'service-key',
  SITE_URL: 'https://site.test/',
  REPORT_REQUEST_HMAC_SECRET: 's'.repeat(32),
}

describe('mailTransportFromEnv', () => {
  it('falls back to the local mailbox without key or sender', () => {
    expect(mailTransportFromEnv({ LOCAL_MAILBOX_URL: 'http://127.0.0.1:54324/' })).toEqual({
      apiUrl: 'http://127.0.0.1:54324',
      apiKey: undefined,
      from: 'Agent Insight <notifications@localhost>',
    })
  })
  it('requires a key and a sender for a real provider, naming them', () => {
    expect(() => mailTransportFromEnv({ MAIL_API_URL: 'https://api.resend.com' })).toThrow('MAIL_API_KEY is required')
    expect(() => mailTransportFromEnv({ MAIL_API_URL: 'https://api.resend.com', MAIL_API_KEY: 're_x' })).toThrow(
      'MAIL_FROM is required',
    )
    expect(() => mailTransportFromEnv({})).toThrow('MAIL_API_URL is not set')
  })
})

describe('mailConfigFromEnv', () => {
  it('adds what unsubscribe links and the suppression list need', () => {
    expect(mailConfigFromEnv({ LOCAL_MAILBOX_URL: 'http://127.0.0.1:54324', ...platform }).list).toEqual({
      siteUrl: 'https://site.test',
      supabaseUrl: 'https://ref.supabase.test',
      secretKey: 'service-key',
      tokenSecret: 's'.repeat(32),
    })
  })
  it('names what is missing', () => {
    expect(() =>
      mailConfigFromEnv({ LOCAL_MAILBOX_URL: 'http://127.0.0.1:54324', ...platform, REPORT_REQUEST_HMAC_SECRET: 'x' }),
    ).toThrow('REPORT_REQUEST_HMAC_SECRET must be set (32+ characters)')
    expect(() =>
      mailConfigFromEnv({ LOCAL_MAILBOX_URL: 'http://127.0.0.1:54324', ...platform, SITE_URL: undefined }),
    ).toThrow('SITE_URL must be the public site URL')
  })
})

describe('sendMail', () => {
  const config = {
    apiUrl: 'https://api.resend.test',
    apiKey: 're_123',
    from: 'A <a@x.test>',
    list: {
      siteUrl: 'https://site.test',
      supabaseUrl: 'https://ref.supabase.test',
      secretKey: 'service-key',
      tokenSecret: 't'.repeat(32),
    },
  }
  const message = {
    from: 'A <a@x.test>',
    to: ['ops@x.test'],
    subject: 'Hi',
    html: '<html><body><p>Hi</p></body></html>',
    text: 'Hi',
  }

  /** A fake network: the suppression list holds `suppressed`; every send is recorded. */
  function fakeNetwork(suppressed: string[] = [], answer: () => Response = () => Response.json({ id: 'abc' })) {
    const sends: { url: string; init: RequestInit }[] = []
    const lookups: string[] = []
    const fake = (async (url: string, init: RequestInit = {}) => {
      if (url.includes('/rest/v1/email_suppressions')) {
        lookups.push(url)
        const hashes = await Promise.all(suppressed.map(emailHash))
        return Response.json(hashes.filter((hash) => url.includes(hash)).map((hash) => ({ email_hash: hash })))
      }
      sends.push({ url, init })
      return answer()
    }) as unknown as typeof fetch
    return { fake, sends, lookups }
  }

  it('POSTs one Resend body per recipient, with the unsubscribe footer and the RFC 8058 headers', async () => {
    const network = fakeNetwork()
    expect(await sendMail(config, message, network.fake)).toEqual({ id: 'abc', ids: ['abc'], suppressed: [] })
    expect(network.sends).toHaveLength(1)
    const [first] = network.sends
    expect(first!.url).toBe('https://api.resend.test/emails')
    expect((first!.init.headers as Record<string, string>).Authorization).toBe('Bearer re_123')
    const body = JSON.parse(String(first!.init.body))
    expect(body.to).toEqual(['ops@x.test'])
    const oneClick = /^<https:\/\/ref\.supabase\.test\/functions\/v1\/unsubscribe\?token=([0-9a-f.]+)>$/.exec(
      body.headers['List-Unsubscribe'],
    )
    expect(oneClick).not.toBeNull()
    expect(body.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    // the token names this recipient's address and is signed with the secret
    expect(await verifyUnsubscribeToken('t'.repeat(32), oneClick![1]!)).toBe(await emailHash('ops@x.test'))
    expect(body.html).toBe(
      `<html><body><p>Hi</p><p style="margin-top:24px;font-size:12px;color:#64748b">You received this email from AgentInsight. <a href="https://site.test/unsubscribe?token=${oneClick![1]}">Unsubscribe</a> from all our emails.</p></body></html>`,
    )
    expect(body.text).toBe(
      `Hi\n\n--\nYou received this email from AgentInsight. Unsubscribe from all our emails: https://site.test/unsubscribe?token=${oneClick![1]}\n`,
    )
    // the suppression list is read with the secret key
    expect(network.lookups).toHaveLength(1)
  })

  it('sends several recipients their own copies in one batch request', async () => {
    const network = fakeNetwork([], () => Response.json({ data: [{ id: 'a1' }, { id: 'a2' }] }))
    expect(await sendMail(config, { ...message, to: ['ops@x.test', 'Two@X.test'] }, network.fake)).toEqual({
      id: 'a1',
      ids: ['a1', 'a2'],
      suppressed: [],
    })
    expect(network.sends.map((send) => send.url)).toEqual(['https://api.resend.test/emails/batch'])
    const batch = JSON.parse(String(network.sends[0]!.init.body)) as { to: string[]; headers: Record<string, string> }[]
    expect(batch.map((copy) => copy.to)).toEqual([['ops@x.test'], ['Two@X.test']])
    expect(batch[0]!.headers['List-Unsubscribe']).not.toBe(batch[1]!.headers['List-Unsubscribe'])
  })

  it('leaves out an address on the suppression list, whatever its case', async () => {
    const network = fakeNetwork(['gone@x.test'])
    const result = await sendMail(config, { ...message, to: ['ops@x.test', 'GONE@x.test'] }, network.fake)
    expect(result.suppressed).toEqual(['GONE@x.test'])
    expect(network.sends.map((send) => JSON.parse(String(send.init.body)).to)).toEqual([['ops@x.test']])
    expect(network.sends.map((send) => send.url)).toEqual(['https://api.resend.test/emails'])
  })

  it('sends nothing when every recipient unsubscribed', async () => {
    const network = fakeNetwork(['ops@x.test'])
    const error = await sendMail(config, message, network.fake).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MailSuppressedError)
    expect(error).toBeInstanceOf(MailSendError)
    expect(network.sends).toEqual([])
  })

  it('sends nothing when the suppression list cannot be read', async () => {
    const sends: string[] = []
    const fake = (async (url: string) => {
      if (url.includes('email_suppressions')) return new Response('down', { status: 503 })
      sends.push(url)
      return Response.json({ id: 'abc' })
    }) as unknown as typeof fetch
    const error = await sendMail(config, message, fake).catch((caught: unknown) => caught)
    expect((error as Error).message).toBe('Could not read the suppression list, so nothing was sent: HTTP 503')
    expect(sends).toEqual([])
  })

  it("throws the provider's status and message", async () => {
    const network = fakeNetwork([], () =>
      Response.json({ statusCode: 422, name: 'validation_error', message: 'Invalid `to`' }, { status: 422 }),
    )
    const error = await sendMail(config, message, network.fake).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MailSendError)
    expect((error as MailSendError).status).toBe(422)
    expect((error as Error).message).toBe('The mail API refused the email (422): Invalid `to`')
  })
})

describe('singleLine', () => {
  it('strips line breaks from headers', () => {
    expect(singleLine('New lead\r\nBcc: x@y')).toBe('New lead Bcc: x@y')
  })
})
