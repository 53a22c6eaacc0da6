/**
 * The one allow-list for blog post HTML, shared by the public site and admin preview (src/lib/post-content.ts) and
 * the edge functions that write posts (./ai/sanitize.ts). Import-free so both Node/Vite and Deno can load it; each
 * side passes it to its own sanitize-html. No scripts, event handlers, javascript: URLs, protocol-relative URLs,
 * or iframes outside the video hosts below; `target="_blank"` links get rel="noopener noreferrer".
 */

/** Hosts whose iframes (video embeds) may appear in posts; everything else is dropped. */
export const IFRAME_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com']

/** The one value of `data-callout` a post's `<div>` may carry: an insight card in the article body. */
export const CALLOUT_INSIGHT = 'insight'

/** sanitize-html options (structurally its IOptions). */
export const POST_SANITIZE_OPTIONS = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'span',
    'div',
    'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    // An insight callout in the body: `<div data-callout="insight">…</div>` (the admin editor's Callout button writes it;
    // the article and the preview style it as an insight card). No other value survives.
    div: [{ name: 'data-callout', multiple: false, values: [CALLOUT_INSIGHT] }],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], iframe: ['https'] },
  allowedIframeHostnames: IFRAME_HOSTS,
  allowProtocolRelative: false,
  transformTags: {
    // sanitize-html keeps a disallowed value as a bare attribute; a div is a callout only with the exact value
    div: (tagName: string, attribs: Record<string, string>) => {
      if (attribs['data-callout'] === undefined || attribs['data-callout'] === CALLOUT_INSIGHT)
        return { tagName, attribs }
      const { 'data-callout': _dropped, ...rest } = attribs
      return { tagName, attribs: rest }
    },
    a: (tagName: string, attribs: Record<string, string>) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
}
