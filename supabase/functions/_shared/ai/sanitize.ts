/**
 * The post HTML allow-list of src/lib/post-content.ts, for the edge functions. Deno cannot import the site's
 * module (it resolves 'sanitize-html' and 'entities' from node_modules), so the options are repeated here and
 * sanitize.test.ts sanitizes a corpus of hostile and ordinary HTML with both and fails if the outputs differ.
 * Change both files together.
 */
// @ts-types="npm:@types/sanitize-html@2"
import sanitizeHtml from 'npm:sanitize-html@2';

/** Hosts whose iframes (video embeds) may appear in posts; mirrors IFRAME_HOSTS in src/lib/post-content.ts. */
export const IFRAME_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com'];

export const POST_SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'strong', 'b',
    'em', 'i', 'u', 's', 'sub', 'sup', 'a', 'img', 'figure', 'figcaption', 'table', 'thead', 'tbody', 'tfoot', 'tr',
    'th', 'td', 'caption', 'span', 'div', 'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], iframe: ['https'] },
  allowedIframeHostnames: IFRAME_HOSTS,
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

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
