/**
 * Tokens of the links we mail (confirm a report request, confirm a newsletter sign-up): 32 random bytes as 64 hex
 * characters, of which only the SHA-256 is stored, so a database reader cannot use a link meant for someone else.
 * Web Crypto only, so every runtime can load it.
 */

/** 64 hex characters of randomness (crypto.getRandomValues). */
export function newLinkToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** SHA-256 hex of a token: what a table stores. */
export async function linkTokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The shape of a link token (what a confirmation body must carry). */
export const LINK_TOKEN_PATTERN = /^[0-9a-f]{64}$/
