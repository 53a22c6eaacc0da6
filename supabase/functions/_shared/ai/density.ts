/**
 * Hack density of a generated article (blog_posts.hack_density_score, 0-10; bands >= 8 high, >= 5 medium as in
 * src/lib/density.ts) and its insight list (blog_posts.insights / unique_insights). Pure; no I/O.
 *
 * Density rule: the article's advice blocks are its <p> and <li> elements with text. A block is actionable when it
 * starts with an imperative verb from ACTION_VERBS ("Compare ...", "Ask ...") or carries a figure (a digit), i.e. it
 * tells the reader what to do or gives them a number to act on. score = 10 x actionable / blocks, rounded to one
 * decimal; an article with no blocks scores 0. Table cells are data, not advice, and do not count.
 */

/** Verbs that open an instruction to the reader. */
export const ACTION_VERBS = [
  'ask',
  'avoid',
  'book',
  'budget',
  'check',
  'choose',
  'compare',
  'consider',
  'expect',
  'get',
  'hire',
  'interview',
  'keep',
  'list',
  'look',
  'make',
  'negotiate',
  'offer',
  'plan',
  'prepare',
  'price',
  'read',
  'request',
  'review',
  'schedule',
  'set',
  'start',
  'talk',
  'time',
  'track',
  'use',
  'verify',
  'watch',
]

function blockTexts(html: string): string[] {
  const blocks: string[] = []
  for (const match of html.matchAll(/<(p|li)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/gi)) {
    const text = match[2]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/&[a-z#0-9]+;/gi, ' ')
      .replace(/\s+/g, ' ')
      .trim()
    if (text) blocks.push(text)
  }
  return blocks
}

/** True when a block of plain text is actionable per the module rule. */
export function isActionable(text: string): boolean {
  const first = text.toLowerCase().match(/^[a-z]+/)?.[0]
  return (first !== undefined && ACTION_VERBS.includes(first)) || /\d/.test(text)
}

/** Hack density 0-10 (one decimal) of article HTML per the module rule. */
export function hackDensityScore(html: string): number {
  const withoutTables = html.replace(/<table[\s\S]*?<\/table>/gi, '')
  const blocks = blockTexts(withoutTables)
  if (blocks.length === 0) return 0
  const actionable = blocks.filter(isActionable).length
  return Math.round((100 * actionable) / blocks.length) / 10
}

/** Distinct insights (trimmed, case-insensitive duplicates and empties removed), in order. */
export function distinctInsights(insights: string[]): string[] {
  const seen = new Set<string>()
  const result: string[] = []
  for (const insight of insights) {
    const text = insight.replace(/\s+/g, ' ').trim()
    const key = text.toLowerCase()
    if (!text || seen.has(key)) continue
    seen.add(key)
    result.push(text)
  }
  return result
}
