/**
 * The mailbox an email address delivers to, for per-mailbox rate limits: one key for every spelling that reaches the
 * same inbox, so neither case, nor a `+tag`, nor (at Gmail) dots open a new bucket. No imports, so every runtime
 * can load it.
 *  - everywhere: trimmed, lower-cased, the local part cut at its first `+` (sub-addressing, RFC 5233; Gmail,
 *    Outlook, Fastmail, iCloud and Proton all deliver `ana+x@` to `ana@`);
 *  - gmail.com and googlemail.com: dots in the local part are ignored and both domains are one
 *    (https://support.google.com/mail/answer/7436150: "Gmail doesn't recognize dots as characters within
 *    usernames"; googlemail.com is the same service).
 * Only for counting: mail is always sent to the address as typed.
 */

/** Domains whose mailboxes ignore dots in the local part, mapped to the one domain they stand for. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' }

/** `Ana.B+news@GoogleMail.com` -> `anab@gmail.com`; `ana+x@example.com` -> `ana@example.com`. */
export function mailboxKey(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at < 1) return address
  let local = address.slice(0, at)
  let domain = address.slice(at + 1).replace(/\.+$/, '')
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  const dotless = DOTLESS_DOMAINS[domain]
  if (dotless) {
    local = local.replaceAll('.', '') || local
    domain = dotless
  }
  return `${local}@${domain}`
}
