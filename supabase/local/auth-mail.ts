/** The auth emails of the local API: lite's email driver with the corrections that make its mails GoTrue's. */
import type { EmailDriver } from '@supabase/lite'

/** Subject of the password recovery email (supabase/templates/recovery.html is its body). */
export const RECOVERY_SUBJECT = 'Reset your Agent Insight password'

/**
 * The stand-in's mail corrections around lite's email driver:
 *  - lite builds {{ .ConfirmationURL }} on SITE_URL (`<site>/auth/v1/verify?...`), where GoTrue uses the API's own
 *    URL; links are pointed at this API so confirmation and magic links work locally as they do hosted;
 *  - the recovery email's HTML comes from supabase/templates/recovery.html (linking to the site's
 *    /auth/reset-password page, as hosted), but lite renders its text part from a built-in template; the text part
 *    gets the HTML's link so both lead to the same page;
 *  - users created through the admin API get no confirmation email (`suppress`), as with GoTrue's admin API.
 */
export function correctedMail(
  driver: EmailDriver,
  siteUrl: string,
  apiUrl: string,
  suppress: Set<string>,
): EmailDriver {
  const siteVerify = `${siteUrl.replace(/\/+$/, '')}/auth/v1/verify`
  const apiVerify = `${apiUrl.replace(/\/+$/, '')}/auth/v1/verify`
  return {
    async send(message) {
      if (suppress.delete(message.to.toLowerCase())) return
      let text = message.text?.replaceAll(siteVerify, apiVerify)
      const html = message.html?.replaceAll(siteVerify, apiVerify)
      if (message.subject === RECOVERY_SUBJECT && html) {
        const link = /href="([^"]*\/auth\/reset-password[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&')
        if (link) {
          text = `Someone asked to reset the password of your Agent Insight account. To choose a new password, open:\n\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.`
        }
      }
      return driver.send({ ...message, text, html })
    },
  }
}
