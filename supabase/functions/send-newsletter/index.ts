/**
 * send-newsletter: mails one published blog post (title, excerpt, link) to the newsletter's confirmed subscribers
 * (public.newsletter_recipients), administrators only. Every copy goes through @shared/mail.ts, so an address on the
 * suppression list gets nothing and every copy carries its own unsubscribe link and one-click headers.
 *
 * POST {post_id, dry_run?} with an administrator's token -> 200 {recipients, sent, suppressed, failed}
 *   (dry_run: the counts without sending); 404 {error} for a post that is not live; 401/403 for other callers.
 * Subscribers are mailed one by one, in order; a provider error stops nothing but is counted in `failed`.
 * Request shell: @shared/http.ts, CORS only for the site's origins; verify_jwt = false, the caller is checked with
 * Auth and is_admin() (@shared/ai/http.ts requireAdmin).
 */
import { requireAdmin } from '@shared/ai/http.ts'
import { escapeHtml } from '@shared/html.ts'
import { HttpError, parseBody, serveFunction } from '@shared/http.ts'
import { mailConfigFromEnv, MailSendError, MailSuppressedError, sendMail, singleLine } from '@shared/mail.ts'
import { serviceClient } from '@shared/supabase.ts'
import { absoluteUrl, postUrl } from '@shared/urls.ts'
import { z } from 'zod'

const mail = mailConfigFromEnv(Deno.env.toObject())
const admin = serviceClient()

const SendNewsletterSchema = z.object({
  post_id: z.uuid({ error: 'post_id must be the id of a published post' }),
  dry_run: z.boolean({ error: 'dry_run must be true or false' }).optional(),
})

serveFunction({
  name: 'send-newsletter',
  cors: 'site',
  failureMessage: 'The newsletter could not be sent. Please try again.',
  async handle({ request, body, json }) {
    const caller = await requireAdmin(request)
    if (!caller.ok) return json({ error: caller.error }, caller.status)
    const input = parseBody(SendNewsletterSchema, body)

    const { data: post, error } = await admin
      .from('blog_posts')
      .select('title, slug, excerpt, status, published_at')
      .eq('id', input.post_id)
      .maybeSingle()
    if (error) throw error
    if (!post || post.status !== 'published' || !post.published_at || new Date(post.published_at) > new Date())
      throw new HttpError(404, 'Only a published post can be sent as the newsletter.')

    // PostgREST answers at most 1,000 rows per request
    const recipients: { email: string | null }[] = []
    for (let from = 0; ; from += 1000) {
      const page = await admin
        .from('newsletter_recipients')
        .select('email')
        .order('id')
        .range(from, from + 999)
      if (page.error) throw page.error
      recipients.push(...page.data)
      if (page.data.length < 1000) break
    }
    const counts = { recipients: recipients.length, sent: 0, suppressed: 0, failed: 0 }
    if (input.dry_run) return json(counts)

    const link = absoluteUrl(postUrl(post.slug), mail.list.siteUrl)
    const excerpt = post.excerpt?.trim() ?? ''
    for (const { email } of recipients) {
      if (!email) continue
      try {
        await sendMail(mail, {
          from: mail.from,
          to: [email],
          subject: singleLine(post.title).slice(0, 200),
          html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#0f172a"><h1 style="font-size:20px">${escapeHtml(post.title)}</h1>${excerpt ? `<p>${escapeHtml(excerpt)}</p>` : ''}<p><a href="${escapeHtml(link)}">Read the article</a></p><p>AgentInsight</p></body></html>`,
          text: `${post.title}\n\n${excerpt ? `${excerpt}\n\n` : ''}Read the article: ${link}\n\nAgentInsight\n`,
        })
        counts.sent += 1
      } catch (failure) {
        if (failure instanceof MailSuppressedError) counts.suppressed += 1
        else if (failure instanceof MailSendError) {
          counts.failed += 1
          console.error(`send-newsletter: ${failure.message}`)
        } else throw failure
      }
    }
    return json(counts)
  },
})
