import { describe, expect, it } from 'vitest'
import { emailHash, unsubscribeToken, verifyUnsubscribeToken, UNSUBSCRIBE_TOKEN_PATTERN } from './unsubscribe.ts'

const secret = 'k'.repeat(32)

describe('emailHash', () => {
  it('is SHA-256 hex of the trimmed, lower-cased address (the SQL public.email_hash rule)', async () => {
    // echo -n 'ana@example.com' | sha256sum
    expect(await emailHash('  Ana@Example.COM ')).toBe(
      '8e43ca37701228e74983efdbd0cff5c16b3b1e5d4e29a7c05626d4d25a018e11',
    )
  })
})

describe('unsubscribe tokens', () => {
  it('name the address hash and verify under the same secret only', async () => {
    const token = await unsubscribeToken(secret, 'ana@example.com')
    expect(token).toMatch(UNSUBSCRIBE_TOKEN_PATTERN)
    expect(await verifyUnsubscribeToken(secret, token)).toBe(await emailHash('ana@example.com'))
    expect(await verifyUnsubscribeToken('other'.repeat(8), token)).toBeNull()
  })

  it('refuse a token made for another address or altered by a character', async () => {
    const token = await unsubscribeToken(secret, 'ana@example.com')
    const other = await unsubscribeToken(secret, 'bo@example.com')
    expect(await verifyUnsubscribeToken(secret, `${other.split('.')[0]}.${token.split('.')[1]}`)).toBeNull()
    const flipped = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0')
    expect(await verifyUnsubscribeToken(secret, flipped)).toBeNull()
    expect(await verifyUnsubscribeToken(secret, 'not-a-token')).toBeNull()
  })
})
