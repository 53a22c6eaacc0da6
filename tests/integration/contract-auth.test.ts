/**
 * Contract suite, GoTrue part: sign-up with metadata, password sign-in, refresh rotation, sign-out, auth events,
 * the access token's claims, password-reset mail in the local mailbox, and JSON answers from MFA endpoints.
 */
import type { AuthChangeEvent } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { decodeJwtPayload } from '../../supabase/local/jwt.ts';
import { anonClient, mailTo, testEnv, uniqueEmail } from '../support/env.ts';

const password = 'correct-horse-battery';

describe('auth', () => {
  it('signs up with metadata and issues the full GoTrue claim set (gap 2)', async () => {
    const client = anonClient();
    const email = uniqueEmail();
    const { data, error } = await client.auth.signUp({ email, password, options: { data: { full_name: 'Ada Lovelace' } } });
    expect(error).toBeNull();
    expect(data.user!.user_metadata.full_name).toBe('Ada Lovelace');
    const claims = decodeJwtPayload(data.session!.access_token);
    expect(claims).toMatchObject({
      iss: `${testEnv.url}/auth/v1`,
      aud: 'authenticated',
      sub: data.user!.id,
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: expect.objectContaining({ full_name: 'Ada Lovelace' }),
    });
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect(typeof claims.session_id).toBe('string');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
  });

  it('signs in with a password, and refuses a wrong one with "Invalid login credentials"', async () => {
    const email = uniqueEmail();
    await anonClient().auth.signUp({ email, password });
    const good = await anonClient().auth.signInWithPassword({ email, password });
    expect(good.error).toBeNull();
    expect(good.data.user!.email).toBe(email);
    const bad = await anonClient().auth.signInWithPassword({ email, password: 'wrong-password-123' });
    expect(bad.error!.message).toBe('Invalid login credentials');
    expect(bad.error!.status).toBe(400);
  });

  it('rotates refresh tokens and rejects a used one', async () => {
    const client = anonClient();
    const email = uniqueEmail();
    const { data } = await client.auth.signUp({ email, password });
    const first = data.session!.refresh_token;
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session!.refresh_token).not.toBe(first);
    expect(decodeJwtPayload(refreshed.data.session!.access_token).iss).toBe(`${testEnv.url}/auth/v1`);
    const reuse = await anonClient().auth.refreshSession({ refresh_token: first });
    // GoTrue allows a short reuse interval; after it the old token is revoked. Either way the new one works.
    if (reuse.error) expect(reuse.error.status).toBeGreaterThanOrEqual(400);
    const next = await anonClient().auth.refreshSession({ refresh_token: refreshed.data.session!.refresh_token });
    expect(next.error).toBeNull();
  });

  it('emits auth events and signs out', async () => {
    const client = anonClient();
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((event) => {
      events.push(event);
    });
    const email = uniqueEmail();
    await client.auth.signUp({ email, password });
    await client.auth.signOut();
    await client.auth.signInWithPassword({ email, password });
    expect(events).toEqual(expect.arrayContaining(['INITIAL_SESSION', 'SIGNED_IN', 'SIGNED_OUT']));
    const { data } = await client.auth.getUser();
    expect(data.user!.email).toBe(email);
    const { error } = await client.auth.signOut();
    expect(error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();
  });

  it('delivers the password-reset email to the local mailbox', async () => {
    const email = uniqueEmail('reset');
    await anonClient().auth.signUp({ email, password });
    const { error } = await anonClient().auth.resetPasswordForEmail(email, { redirectTo: 'http://localhost:4321/auth' });
    expect(error).toBeNull();
    const messages = await mailTo(email);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text_body).toContain('/auth/v1/verify?token=');
    const page = await fetch(`${testEnv.mailboxUrl}/`);
    expect(await page.text()).toContain(email);
  });

  it('answers MFA calls with a JSON error instead of crashing supabase-js (gap 6)', async () => {
    const client = anonClient();
    await client.auth.signUp({ email: uniqueEmail(), password });
    const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp' });
    expect(data).toBeNull();
    expect(error!.message).toMatch(/not available/);
  });
});

describe('CORS', () => {
  it('answers the browser preflight for auth and rest with the requested headers allowed', async () => {
    for (const path of ['/auth/v1/token?grant_type=password', '/rest/v1/blog_posts']) {
      const response = await fetch(`${testEnv.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:4321',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, apikey, content-type, x-client-info',
        },
      });
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
    }
  });
});
