/**
 * Post HTML sanitizing for the edge functions: the same allow-list as the public site (../post-html-policy.ts),
 * applied with sanitize-html from npm.
 */
// @ts-types="npm:@types/sanitize-html@2"
import sanitizeHtml from 'npm:sanitize-html@2';
import { IFRAME_HOSTS, POST_SANITIZE_OPTIONS as POLICY } from '../post-html-policy.ts';

export { IFRAME_HOSTS };

export const POST_SANITIZE_OPTIONS: sanitizeHtml.IOptions = POLICY;

/** Sanitizes post HTML exactly as the public site and the admin preview do. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, POST_SANITIZE_OPTIONS);
}

/** Text of HTML with tags removed and the common entities decoded, for figure checks, excerpts and word counts. */
export function htmlToText(html: string): string {
  // a space per tag keeps table cells and list items apart ("02139" + "103.4%" must not read "02139103.4%")
  return sanitizeHtml(html.replace(/<(?=\/?[a-zA-Z])/g, ' <'), { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
