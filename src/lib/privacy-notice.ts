/**
 * The one-line privacy notices of the site's forms, each followed by a link to /privacy (which has the details):
 * who receives what the visitor sends, and that it is never sold or passed on without their say.
 */

/** Under the Get Report form. */
export const REPORT_PRIVACY_LINE =
  'Only the AgentInsight team receives your request. We never sell it, and we pass it to an agent only if you ask us to.'

/** Under the contact form. */
export const CONTACT_PRIVACY_LINE = 'Only the AgentInsight team reads your message. We never sell it or pass it on.'
