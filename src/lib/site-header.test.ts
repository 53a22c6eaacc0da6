import { describe, expect, it } from 'vitest'

import { headerUserFromSession } from './site-header'

describe('headerUserFromSession', () => {
  const session = (user: object) => JSON.stringify({ access_token: 'a', refresh_token: 'r', user })

  it('shows the full name from sign-up, else the email', () => {
    expect(
      headerUserFromSession(session({ email: 'a@example.com', user_metadata: { full_name: ' Ada Lovelace ' } })),
    ).toEqual({ name: 'Ada Lovelace' })
    expect(headerUserFromSession(session({ email: 'a@example.com', user_metadata: {} }))).toEqual({
      name: 'a@example.com',
    })
  })
  it('is signed out without a readable session', () => {
    expect(headerUserFromSession(null)).toBeNull()
    expect(headerUserFromSession('not json')).toBeNull()
    expect(headerUserFromSession(JSON.stringify({ user: { email: 'a@example.com' } }))).toBeNull()
  })
})
