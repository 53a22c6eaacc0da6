import { describe, expect, it } from 'vitest'
import { mailConfigFromEnv, MailSendError, sendMail, singleLine } from './mail.ts'

describe('mailConfigFromEnv', () => {
  it('falls back to the local mailbox without key or sender', () => {
    expect(mailConfigFromEnv({ LOCAL_MAILBOX_URL: 'http://127.0.0.1:54324/' })).toEqual({
      apiUrl: 'http://127.0.0.1:54324',
      apiKey: undefined,
      from: 'Agent Insight <notifications@localhost>',
    })
  })
  it('requires a key and a sender for a real provider, naming them', () => {
    expect(() => mailConfigFromEnv({ MAIL_API_URL: 'https://api.resend.com' })).toThrow('MAIL_API_KEY is required')
    expect(() => mailConfigFromEnv({ MAIL_API_URL: 'https://api.resend.com', MAIL_API_KEY: 're_x' })).toThrow(
      'MAIL_FROM is required',
    )
    expect(() => mailConfigFromEnv({})).toThrow('MAIL_API_URL is not set')
  })
})

describe('sendMail', () => {
  const config = { apiUrl: 'https://api.resend.test', apiKey: 're_123', from: 'A <a@x.test>' }
  const message = { from: 'A <a@x.test>', to: ['ops@x.test'], subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' }

  it('POSTs the Resend body with the bearer key and returns the id', async () => {
    let seen: { url: string; init: RequestInit } | undefined
    const fake = (async (url: string, init: RequestInit) => {
      seen = { url, init }
      return Response.json({ id: 'abc' })
    }) as unknown as typeof fetch
    expect(await sendMail(config, message, fake)).toEqual({ id: 'abc' })
    expect(seen!.url).toBe('https://api.resend.test/emails')
    expect((seen!.init.headers as Record<string, string>).Authorization).toBe('Bearer re_123')
    expect(JSON.parse(String(seen!.init.body))).toEqual(message)
  })

  it("throws the provider's status and message", async () => {
    const fake = (async () =>
      Response.json(
        { statusCode: 422, name: 'validation_error', message: 'Invalid `to`' },
        { status: 422 },
      )) as unknown as typeof fetch
    const error = await sendMail(config, message, fake).catch((caught: unknown) => caught)
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
