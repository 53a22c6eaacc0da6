import { describe, expect, it } from 'vitest'

import { resolvePlatformEnv } from './supabase.ts'

const read = (variables: Record<string, string>) => (name: string) => variables[name]

describe('resolvePlatformEnv', () => {
  it('prefers the new publishable and secret key dictionaries hosted Supabase injects', () => {
    const env = resolvePlatformEnv(
      read({
        SUPABASE_URL: 'https://abc.supabase.co',
        SUPABASE_PUBLISHABLE_KEYS: '{"default":"sb_publishable_x"}',
        SUPABASE_SECRET_KEYS: '{"default":"sb_secret_y","ci":"sb_secret_z"}',
        SUPABASE_ANON_KEY: 'legacy-anon',
        SUPABASE_SERVICE_ROLE_KEY: 'legacy-service',
      }),
    )
    expect(env).toEqual({
      SUPABASE_URL: 'https://abc.supabase.co',
      publishableKey: 'sb_publishable_x',
      secretKey: 'sb_secret_y',
      secretKeys: ['sb_secret_y', 'sb_secret_z', 'legacy-service'],
    })
  })

  it('falls back to the legacy keys when the new ones are absent', () => {
    const env = resolvePlatformEnv(
      read({
        SUPABASE_URL: 'http://127.0.0.1:54321',
        SUPABASE_ANON_KEY: 'anon.jwt',
        SUPABASE_SERVICE_ROLE_KEY: 'service.jwt',
      }),
    )
    expect(env).toMatchObject({ publishableKey: 'anon.jwt', secretKey: 'service.jwt', secretKeys: ['service.jwt'] })
  })

  it('names every missing or malformed variable', () => {
    expect(() => resolvePlatformEnv(read({ SUPABASE_SECRET_KEYS: 'sb_secret_plain' }))).toThrow(
      'Invalid function environment: SUPABASE_URL must be the project URL; ' +
        'SUPABASE_SECRET_KEYS must be a JSON object of named keys, e.g. {"default":"sb_..."}; ' +
        'SUPABASE_PUBLISHABLE_KEYS (or the legacy SUPABASE_ANON_KEY) is not set',
    )
  })
})
