import { describe, expect, it } from 'vitest'
import { clientCredentialsToken, renewalMarginSeconds, resoApiConfig, staticToken } from './reso-auth.ts'

describe('resoApiConfig', () => {
  it('takes a static bearer token', () => {
    expect(resoApiConfig({ RESO_API_URL: 'https://mls.example.com/odata', RESO_API_TOKEN: 'abc' })).toEqual({
      baseUrl: 'https://mls.example.com/odata',
      auth: { kind: 'bearer', token: 'abc' },
    })
  })

  it('takes OAuth2 client credentials, which win over a static token, with Basic authentication by default', () => {
    expect(
      resoApiConfig({
        RESO_API_URL: 'https://mls.example.com/odata',
        RESO_API_TOKEN: 'old',
        RESO_TOKEN_URL: 'https://auth.example.com/token',
        RESO_CLIENT_ID: 'id',
        RESO_CLIENT_SECRET: 'secret',
        RESO_SCOPE: 'api',
      }),
    ).toEqual({
      baseUrl: 'https://mls.example.com/odata',
      auth: {
        kind: 'client_credentials',
        tokenUrl: 'https://auth.example.com/token',
        clientId: 'id',
        clientSecret: 'secret',
        scope: 'api',
        method: 'client_secret_basic',
      },
    })
  })

  it('names what is missing or wrong', () => {
    expect(() => resoApiConfig({})).toThrow(
      'RESO Web API configuration: RESO_API_URL must be the http(s) URL of the OData service root',
    )
    expect(() => resoApiConfig({ RESO_API_URL: 'https://mls.example.com/odata' })).toThrow(
      'RESO Web API configuration: set RESO_API_TOKEN (a bearer token the MLS issued) or RESO_TOKEN_URL, RESO_CLIENT_ID and RESO_CLIENT_SECRET (OAuth2 client credentials)',
    )
    expect(() =>
      resoApiConfig({ RESO_API_URL: 'https://mls.example.com/odata', RESO_TOKEN_URL: 'https://auth.example.com/t' }),
    ).toThrow('missing RESO_CLIENT_ID, RESO_CLIENT_SECRET')
    expect(() =>
      resoApiConfig({
        RESO_API_URL: 'https://mls.example.com/odata',
        RESO_TOKEN_URL: 'http://auth.example.com/t',
        RESO_CLIENT_ID: 'id',
        RESO_CLIENT_SECRET: 'secret',
      }),
    ).toThrow('RESO_TOKEN_URL must use https (http only to 127.0.0.1 or localhost)')
    expect(() =>
      resoApiConfig({ RESO_API_URL: 'https://mls.example.com/odata', RESO_API_TOKEN: 'a', RESO_TOKEN_AUTH: 'jwt' }),
    ).toThrow('RESO_TOKEN_AUTH must be client_secret_basic or client_secret_post')
  })
})

describe('tokens', () => {
  it('renews a minute before expiry, or halfway through a short lifetime', () => {
    expect(renewalMarginSeconds(3600)).toBe(60)
    expect(renewalMarginSeconds(60)).toBe(30)
  })

  it('a static token cannot be renewed; a client-credentials token can', () => {
    expect(staticToken('abc').renew()).toBe(false)
    const source = clientCredentialsToken({
      kind: 'client_credentials',
      tokenUrl: 'https://auth.example.com/token',
      clientId: 'id',
      clientSecret: 'secret',
      method: 'client_secret_basic',
    })
    expect(source.renew()).toBe(true)
  })
})
