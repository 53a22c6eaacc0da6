/**
 * The caller's IP address as the platform's gateway reports it, for hashing only (never stored): the first
 * `x-forwarded-for` entry (hosted Supabase's gateway, and the local stand-in, set it), else `x-real-ip` or
 * `cf-connecting-ip`; '' when none is present.
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || headers.get('x-real-ip')?.trim() || headers.get('cf-connecting-ip')?.trim() || '';
}
