/**
 * Unsubscribe links of every email we send, and the key of the suppression list. Web Crypto only, so the functions
 * (Deno), the site and the tests (Node) can all load it.
 *
 * An address is known to the suppression list (public.email_suppressions) only by `emailHash`: SHA-256 hex of the
 * trimmed, lower-cased address, the same rule as SQL's public.email_hash(). An unsubscribe token is that hash and an
 * HMAC-SHA-256 of it under a key derived from the functions' HMAC secret, `<hash>.<mac>`: it names the address
 * without holding it (links end up in logs), nobody can make one for an address without the secret, and it keeps
 * working as long as the secret does, with nothing stored per mail.
 *
 * One-click unsubscription follows RFC 8058: every mail carries
 *   List-Unsubscribe: <https://<project>/functions/v1/unsubscribe?token=...>
 *   List-Unsubscribe-Post: List-Unsubscribe=One-Click
 * and the mail client POSTs `List-Unsubscribe=One-Click` (form-encoded) to that URL, without cookies or credentials.
 * The footer link opens the site's /unsubscribe page instead, which asks before it POSTs.
 */

/** SHA-256 hex of the trimmed, lower-cased address: the suppression list's key (SQL: public.email_hash). */
export async function emailHash(address: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(address.trim().toLowerCase()))
  return hex(new Uint8Array(digest))
}

/** The shape of an unsubscribe token: 64 hex (the address hash), a dot, 64 hex (its HMAC). */
export const UNSUBSCRIBE_TOKEN_PATTERN = /^[0-9a-f]{64}\.[0-9a-f]{64}$/

/** The label that keeps these MACs apart from every other use of the same secret (the rate-limit keys). */
const TOKEN_LABEL = 'unsubscribe-link:'

async function mac(secret: string, addressHash: string): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  return hex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${TOKEN_LABEL}${addressHash}`))))
}

/** The unsubscribe token of `address` under `secret` (the functions' REPORT_REQUEST_HMAC_SECRET). */
export async function unsubscribeToken(secret: string, address: string): Promise<string> {
  const addressHash = await emailHash(address)
  return `${addressHash}.${await mac(secret, addressHash)}`
}

/**
 * The address hash a token stands for, or null when the token is malformed or was not made with `secret`
 * (compared in constant time).
 */
export async function verifyUnsubscribeToken(secret: string, token: string): Promise<string | null> {
  if (!UNSUBSCRIBE_TOKEN_PATTERN.test(token)) return null
  const [addressHash, given] = token.split('.') as [string, string]
  const expected = await mac(secret, addressHash)
  let difference = 0
  for (let index = 0; index < expected.length; index += 1)
    difference |= expected.charCodeAt(index) ^ given.charCodeAt(index)
  return difference === 0 ? addressHash : null
}

/** The site's unsubscribe page for a token (the link in every mail's footer): `<site>/unsubscribe?token=`. */
export function unsubscribePageUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/unsubscribe?token=${token}`
}

/** The one-click endpoint for a token (the List-Unsubscribe header): `<api>/functions/v1/unsubscribe?token=`. */
export function oneClickUnsubscribeUrl(supabaseUrl: string, token: string): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/unsubscribe?token=${token}`
}

/** The RFC 8058 headers of one mail to one recipient. */
export function unsubscribeHeaders(oneClickUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}

/** The unsubscribe request body: the token, and whether to stop (unsubscribe) or undo that (resubscribe). */
export interface UnsubscribeBody {
  token: string
  action?: 'unsubscribe' | 'resubscribe'
}

/**
 * The unsubscribe function's answers:
 *   POST {token, action?} (JSON, from the /unsubscribe page) or `List-Unsubscribe=One-Click` (form-encoded, from a
 *     mail client, token in the query) -> 200 {status: 'unsubscribed' | 'resubscribed', message}
 *   a token that is malformed or not ours -> 400 {error: UNSUBSCRIBE_INVALID_MESSAGE}
 *   GET ?token= (a person or a link scanner opening the header URL) -> 303 to the site's page; nothing changes.
 */
export type UnsubscribeAnswer = { status: 'unsubscribed' | 'resubscribed'; message: string } | { error: string }

export const UNSUBSCRIBED_MESSAGE = 'You are unsubscribed. We will not email this address again.'
export const RESUBSCRIBED_MESSAGE =
  'Emails to this address are back on. To get the newsletter again, sign up at the bottom of any page.'
export const UNSUBSCRIBE_INVALID_MESSAGE =
  'This unsubscribe link is not valid. Copy the whole link from the email, or write to us through the contact page.'

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
