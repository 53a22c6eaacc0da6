/**
 * Near-duplicate detection for topic and post titles (discover-trending-topics never inserts a topic that reads
 * like an existing topic or a published post title).
 *
 * Rule: a title is normalized to a set of tokens (lower-case, accents and punctuation removed, stop words
 * dropped, simple plural "s" trimmed); two titles are near-duplicates when the Jaccard similarity of their token
 * sets (|A ∩ B| / |A ∪ B|) is at least 0.8. Numbers stay tokens, so a long title whose only change is a refreshed
 * figure is still a duplicate (14 of 16 tokens shared), while a different ZIP or angle is not. Pure; no I/O.
 */

/** Words that carry no topic meaning ("how to sell in Austin" vs "selling Austin"). */
export const STOP_WORDS = new Set([
  'a',
  'about',
  'after',
  'all',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'before',
  'but',
  'by',
  'can',
  'do',
  'does',
  'for',
  'from',
  'get',
  'guide',
  'has',
  'have',
  'how',
  'in',
  'into',
  'is',
  'it',
  'its',
  'just',
  'more',
  'most',
  'now',
  'of',
  'on',
  'or',
  'our',
  'out',
  'should',
  'so',
  'than',
  'that',
  'the',
  'their',
  'them',
  'these',
  'this',
  'to',
  'up',
  'us',
  'vs',
  'was',
  'what',
  'when',
  'where',
  'which',
  'who',
  'why',
  'will',
  'with',
  'you',
  'your',
])

/** Default similarity at or above which two titles count as the same topic. */
export const DUPLICATE_THRESHOLD = 0.8

/** Token set of a title per the module rule. */
export function titleTokens(title: string): Set<string> {
  const words = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    // keep decimals together ("98.7"), drop thousands separators ("1,250" -> "1250")
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/[^a-z0-9.]+/g, ' ')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
  return new Set(
    words.map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word)),
  )
}

/** The normalized form as one string (sorted tokens), for display and logging. */
export function normalizeTitle(title: string): string {
  return [...titleTokens(title)].sort().join(' ')
}

/** Jaccard similarity 0-1 of two titles' token sets; two empty titles are identical (1). */
export function titleSimilarity(a: string, b: string): number {
  const left = titleTokens(a)
  const right = titleTokens(b)
  if (left.size === 0 && right.size === 0) return 1
  let shared = 0
  for (const token of left) if (right.has(token)) shared += 1
  return shared / (left.size + right.size - shared)
}

/** True when `title` is a near-duplicate (similarity >= threshold) of any of `existing`. */
export function isNearDuplicate(title: string, existing: Iterable<string>, threshold = DUPLICATE_THRESHOLD): boolean {
  for (const other of existing) if (titleSimilarity(title, other) >= threshold) return true
  return false
}

/**
 * Key terms of a topic: its title tokens (module rule) without numbers, in order of appearance. These are the
 * words a generated title must keep so the article answers the topic that was asked for.
 */
export function keyTermsOf(topic: string): string[] {
  return [...titleTokens(topic)].filter((token) => !/\d/.test(token))
}

/**
 * True when `title` keeps the topic's angle: it contains at least half of the topic's key terms (rounded up),
 * compared as title tokens (so "agents" matches "agent"). A topic without key terms is shared by any title.
 */
export function sharesKeyTerms(title: string, topic: string): boolean {
  const terms = keyTermsOf(topic)
  if (terms.length === 0) return true
  const tokens = titleTokens(title)
  const shared = terms.filter((term) => tokens.has(term)).length
  return shared >= Math.ceil(terms.length / 2)
}
