/**
 * The one allow-list for blog post HTML, shared by the public site and admin preview (src/lib/post-content.ts) and
 * the edge functions that write posts (./ai/sanitize.ts). Import-free so both Node/Vite and Deno can load it; each
 * side passes it to its own sanitize-html. No scripts, event handlers, javascript: URLs, protocol-relative URLs,
 * or iframes outside the video hosts below; `target="_blank"` links get rel="noopener noreferrer". Every element id a
 * post carries is prefixed (POST_ID_PREFIX), and in-page links with it, so no post element can take the name of a
 * global the page's scripts read (DOM clobbering: an element with id="x" is also window.x).
 */

/** Hosts whose iframes (video embeds) may appear in posts; everything else is dropped. */
export const IFRAME_HOSTS = ['www.youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com']

/** What every element id inside a post starts with. */
export const POST_ID_PREFIX = 'post-'

/**
 * An author's id (or a `#fragment` target) as a post element id: lower-case letters, digits and hyphens, prefixed
 * with POST_ID_PREFIX once; null when nothing usable is left.
 */
export function postElementId(value: string): string | null {
  const bare = value
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (!bare) return null
  return bare.startsWith(POST_ID_PREFIX) ? bare : `${POST_ID_PREFIX}${bare}`
}

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
    // an id survives only prefixed (transformTags '*' below)
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
    // runs after the tag's own transform: ids get POST_ID_PREFIX, and links to them follow
    '*': (tagName: string, attribs: Record<string, string>) => {
      const next = { ...attribs }
      if (next.id !== undefined) {
        const id = postElementId(next.id)
        if (id) next.id = id
        else delete next.id
      }
      if (tagName === 'a' && next.href?.startsWith('#') && next.href.length > 1) {
        const target = postElementId(next.href.slice(1))
        next.href = target ? `#${target}` : '#'
      }
      return { tagName, attribs: next }
    },
  },
}
