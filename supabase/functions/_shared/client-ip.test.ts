import { describe, expect, it } from 'vitest'

import { clientIp } from './client-ip.ts'

describe('clientIp', () => {
  it('takes the last x-forwarded-for entry (the gateway hop), never client-set headers', () => {
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }))).toBe('10.0.0.1')
    expect(clientIp(new Headers({ 'x-forwarded-for': '198.51.100.9' }))).toBe('198.51.100.9')
    expect(clientIp(new Headers({ 'x-real-ip': '198.51.100.2' }))).toBe('')
    expect(clientIp(new Headers())).toBe('')
  })
})
