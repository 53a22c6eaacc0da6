import { describe, expect, it } from 'vitest';

import { clientIp } from './client-ip.ts';

describe('clientIp', () => {
  it('takes the first x-forwarded-for entry, else x-real-ip, else empty', () => {
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }))).toBe('203.0.113.7');
    expect(clientIp(new Headers({ 'x-real-ip': '198.51.100.2' }))).toBe('198.51.100.2');
    expect(clientIp(new Headers())).toBe('');
  });
});
