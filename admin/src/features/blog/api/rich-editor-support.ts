/**
 * Which parts of a post's HTML the rich-text editor cannot hold. The post allow-list
 * (@shared/post-html-policy.ts) keeps more than the TipTap schema of rich-content-editor.tsx knows (headings H2/H3,
 * paragraphs, lists, links, bold/italic/underline/strike, blockquote, rule, images, insight callouts): loading a post
 * with a table or an embedded video into it would silently drop them on the next save. Such posts open in HTML mode.
 */

/** Tags the post policy allows and the rich editor's schema does not, by the name the operator reads. */
const UNSUPPORTED_TAGS: Record<string, string> = {
  h1: 'heading 1',
  h4: 'heading 4',
  h5: 'heading 5',
  h6: 'heading 6',
  pre: 'code block',
  code: 'code',
  sub: 'subscript',
  sup: 'superscript',
  figure: 'figure',
  figcaption: 'figure caption',
  table: 'table',
  iframe: 'embedded frame',
  span: 'styled text',
}

const TAG = /<([a-z][a-z0-9]*)\b([^>]*)>/gi

/**
 * The kinds of markup in `html` the rich editor would drop, in order of first appearance, without repeats (e.g.
 * ['table', 'embedded frame']); [] when the rich editor can hold all of it. A `div` other than an insight callout
 * (`<div data-callout="insight">`) counts as 'block container'.
 */
export function richEditorUnsupported(html: string): string[] {
  const found = new Set<string>()
  for (const match of html.matchAll(TAG)) {
    const tag = match[1]!.toLowerCase()
    if (tag in UNSUPPORTED_TAGS) found.add(UNSUPPORTED_TAGS[tag]!)
    else if (tag === 'div' && !/\bdata-callout\s*=\s*"insight"/i.test(match[2] ?? '')) found.add('block container')
  }
  return [...found]
}
