import { describe, expect, it } from 'vitest'

import { mailboxKey } from './mailbox-key.ts'

describe('mailboxKey', () => {
  it('folds case and +tags into one mailbox at every provider', () => {
    expect(mailboxKey(' Ana+news@Example.COM ')).toBe('ana@example.com')
    expect(mailboxKey('ana@example.com')).toBe('ana@example.com')
    expect(mailboxKey('ana.b+x@outlook.com')).toBe('ana.b@outlook.com')
    expect(mailboxKey('+only@example.com')).toBe('+only@example.com')
  })

  it('ignores dots at Gmail and treats googlemail.com as gmail.com', () => {
    for (const variant of ['a.n.a.b@gmail.com', 'AnaB@GMAIL.com', 'an.ab+reports@googlemail.com', 'anab@gmail.com.'])
      expect(mailboxKey(variant)).toBe('anab@gmail.com')
    // other domains keep their dots: they are different mailboxes there
    expect(mailboxKey('a.nab@example.com')).not.toBe(mailboxKey('anab@example.com'))
  })
})
