/**
 * Blog post HTML as the public article page, the admin preview and the AI functions produce it: sanitized with
 * sanitize-html against the one allow-list in ./post-html-policy.ts (no scripts, event handlers, javascript: URLs, or
 * iframes outside the video hosts), headings given stable ids for the table of contents, the reading time, and the
 * text of HTML. One module for Node, Vite and Deno, so preview, site and generated posts never differ.
 */
// @ts-types="@types/sanitize-html"
import sanitizeHtml from 'sanitize-html'
import { decodeHTML } from 'entities'
import { IFRAME_HOSTS, POST_ID_PREFIX, POST_SANITIZE_OPTIONS } from './post-html-policy.ts'

export { IFRAME_HOSTS }

const options: sanitizeHtml.IOptions = POST_SANITIZE_OPTIONS

/** Sanitizes post HTML (see module doc). Pure; safe to call at build time and in the browser. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, options)
}

/**
 * Text content of HTML (tags stripped, entities decoded, whitespace collapsed), for word counts, headings, excerpts
 * and figure checks. A space stands for each tag, so table cells and list items stay apart ("02139" + "103.4%" must
 * not read "02139103.4%").
 */
export function htmlToText(html: string): string {
  const stripped = sanitizeHtml(html.replace(/<(?=\/?[a-zA-Z])/g, ' <'), { allowedTags: [], allowedAttributes: {} })
  return decodeHTML(stripped).replace(/\s+/g, ' ').trim()
}

/** Reading time in whole minutes: words after stripping tags / 200, rounded up (spec rule), at least 1. */
export function readingTimeMinutes(html: string): number {
  const words = htmlToText(html).split(/\s+/).filter(Boolean).length
  return Math.max(1, Math.ceil(words / 200))
}

export interface TocEntry {
  /** Anchor id of the heading in the rendered HTML. */
  id: string
  /** Plain text (entities decoded): escape it when writing HTML. */
  text: string
  level: 1 | 2
}

/** URL-safe id from heading text: lowercase, ASCII letters and digits joined by hyphens. */
export function headingId(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  )
}

/**
 * Sanitizes the HTML, gives every h1 and h2 a unique id (keeping an existing one; all ids start with POST_ID_PREFIX,
 * see ./post-html-policy.ts), and returns the table of contents of those headings in document order (the article's
 * table of contents links h1/h2).
 */
export function renderPostContent(html: string): { html: string; toc: TocEntry[] } {
  const clean = sanitizePostHtml(html)
  const toc: TocEntry[] = []
  const used = new Map<string, number>()
  const withIds = clean.replace(
    /<h([12])((?:\s[^>]*)?)>([\s\S]*?)<\/h\1>/g,
    (_match, level: string, attrs: string, inner: string) => {
      const text = htmlToText(inner)
      const existing = /\sid="([^"]+)"/.exec(attrs)?.[1]
      let id = existing ?? `${POST_ID_PREFIX}${headingId(text)}`
      const seen = used.get(id) ?? 0
      used.set(id, seen + 1)
      if (seen > 0 && !existing) id = `${id}-${seen + 1}`
      toc.push({ id, text, level: Number(level) as 1 | 2 })
      const rest = attrs.replace(/\sid="[^"]*"/, '')
      return `<h${level} id="${id}"${rest}>${inner}</h${level}>`
    },
  )
  return { html: withIds, toc }
}
