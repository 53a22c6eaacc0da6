/**
 * Article writing: the built-in deterministic writer (no AI provider), the prompts for a model, and the assembly
 * of either into a blog_posts row (sanitized HTML, slug base, excerpt, meta, density, insights). Pure apart from
 * the model calls passed in.
 *
 * The built-in writer states only what the facts say: a table of every figure with its period and source, the
 * Redfin credit line, and short sentences that read the figures for sellers and buyers, around the evergreen guide
 * sections of the topic's type (guides.ts). It does not pad to a word count; a model is asked for the configured
 * target (AI_TARGET_WORDS, default 1,500-2,500 words).
 */
import { hackDensityScore, distinctInsights } from './density.ts'
import { checkFigures, type Fact, type FactSheet, formatFact, formatNumber, longDate } from './facts.ts'
import { guideTemplate, guideTypeOf, type GuideTemplate } from './guides.ts'
import { keyTermsOf, sharesKeyTerms } from './normalize.ts'
import { escapeHtml } from '../html.ts'
import { htmlToText, sanitizePostHtml } from '../post-content.ts'
import { slugify } from '../slug.ts'
import type { Article, ArticleOutline } from './schemas.ts'

/** The article before it becomes a row. */
export interface DraftArticle {
  title: string
  /** HTML with h2 sections, not yet sanitized. */
  html: string
  excerpt: string
  metaTitle: string
  metaDescription: string
  insights: string[]
}

/** The blog_posts columns a writer decides. */
export interface ArticleRow {
  title: string
  slugBase: string
  content: string
  excerpt: string
  meta_title: string
  meta_description: string
  hack_density_score: number
  insights: string[]
  unique_insights: number
}

/** Cuts text to at most `max` characters at a word boundary, adding "…" when cut. */
export function truncate(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= max) return clean
  const cut = clean.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`
}

function find(sheet: FactSheet, zip: string, name: string): Fact | undefined {
  return sheet.facts.find((fact) => fact.key.endsWith(`:${zip}:${name}`))
}

/** The data table and credit lines every article carries (built-in and model articles alike). */
export function factsTableHtml(sheet: FactSheet): string {
  const rows = sheet.facts
    .filter((fact) => !fact.key.endsWith(':window_days'))
    .map(
      (fact) =>
        `<tr><td>${escapeHtml(fact.label)}</td><td>${escapeHtml(formatFact(fact))}</td><td>${escapeHtml(fact.period)}</td><td>${escapeHtml(fact.source)}</td></tr>`,
    )
    .join('')
  const credits = sheet.attributions.map((line) => `<p><em>${escapeHtml(line)}</em></p>`).join('')
  return `<table><thead><tr><th scope="col">Figure</th><th scope="col">Value</th><th scope="col">Period</th><th scope="col">Source</th></tr></thead><tbody>${rows}</tbody></table>${credits}`
}

interface Reading {
  seller: string[]
  buyer: string[]
  insights: string[]
  headline: string | null
}

function readFigures(sheet: FactSheet): Reading {
  const reading: Reading = { seller: [], buyer: [], insights: [], headline: null }
  for (const zip of sheet.zipCodes) {
    const ratio = find(sheet, zip, 'sale_to_list')
    const dom = find(sheet, zip, 'median_dom')
    const above = find(sheet, zip, 'sold_above_list')
    const price = find(sheet, zip, 'median_sale_price')
    const recent = find(sheet, zip, 'recent_sales')
    const prior = find(sheet, zip, 'prior_sales')
    const change = find(sheet, zip, 'sales_change')
    const closedPrice = find(sheet, zip, 'recent_median_price')
    const windowDays = find(sheet, zip, 'window_days')
    const period = (fact: Fact) =>
      fact.period.startsWith('month ending ')
        ? `in the month ending ${longDate(fact.period.slice(13))}`
        : `from ${fact.period.split(' to ').map(longDate).join(' to ')}`

    if (ratio) {
      const over = ratio.value >= 100
      reading.insights.push(`Homes in ${zip} sold at ${formatFact(ratio)} of list price on average ${period(ratio)}.`)
      reading.headline ??= `homes sell at ${formatFact(ratio)} of list`
      reading.seller.push(
        over
          ? `Price at the market, not above it: homes in ${zip} sold at ${formatFact(ratio)} of list, so a well-priced listing draws offers at or over asking.`
          : `Leave room in your list price: homes in ${zip} sold at ${formatFact(ratio)} of list, so expect offers under asking.`,
      )
      reading.buyer.push(
        over
          ? `Plan to offer at or above asking in ${zip}: the average sale closed at ${formatFact(ratio)} of list.`
          : `Negotiate in ${zip}: the average sale closed at ${formatFact(ratio)} of list, below the asking price.`,
      )
    }
    if (dom) {
      reading.insights.push(`The median home in ${zip} spent ${formatFact(dom)} on the market ${period(dom)}.`)
      reading.headline ??= `a ${formatNumber(dom.value)}-day median sale`
      reading.seller.push(
        `Plan for about ${formatFact(dom)} on the market, the median in ${zip}; have repairs and photos done before day one.`,
      )
      reading.buyer.push(
        `Expect a decision window of about ${formatFact(dom)} in ${zip}, the median time on market; get pre-approved before you tour.`,
      )
    }
    if (above) {
      reading.insights.push(`${formatFact(above)} of homes in ${zip} sold above list price ${period(above)}.`)
      reading.buyer.push(
        `Check how often you may be competing: ${formatFact(above)} of homes in ${zip} sold above list.`,
      )
    }
    if (price) {
      reading.insights.push(`The median sale price in ${zip} was ${formatFact(price)} ${period(price)}.`)
      reading.headline ??= `a ${formatFact(price)} median sale price`
      reading.buyer.push(`Budget from the median: ${formatFact(price)} in ${zip}.`)
    }
    if (recent && prior && windowDays) {
      const changeText = change ? ` (${change.value >= 0 ? 'up' : 'down'} ${formatFact(change)})` : ''
      reading.insights.push(
        `${formatFact(recent)} closed sales were recorded in ${zip} in the last ${formatNumber(windowDays.value, 0)} days of data, against ${formatFact(prior)} in the ${formatNumber(windowDays.value, 0)} days before${changeText}.`,
      )
      reading.headline ??= change ? `closed sales ${change.value >= 0 ? 'up' : 'down'} ${formatFact(change)}` : null
      if (closedPrice)
        reading.seller.push(
          `Compare your price with recent closings: the median closed price in ${zip} was ${formatFact(closedPrice)} ${period(closedPrice)}.`,
        )
    }
  }
  return reading
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The topic without the figures the fact sheet does not hold (with a leading "at", "of", "by", ... and a trailing
 * "of list"), so a custom topic's "at 96% of list" or an old topic's lead count never reaches a title or a prompt.
 */
export function withoutUnsupportedFigures(topic: string, sheet: FactSheet): string {
  let text = topic.replace(/\s+/g, ' ').trim()
  for (const raw of checkFigures(text, sheet).unsupported) {
    const pattern = new RegExp(
      `(?:\\b(?:at|of|by|to|in|for|with|over|under|above|below|than|about|around|nearly|almost|up|down|from)\\s+)?${escapeRegExp(raw)}` +
        `(?:\\s+(?:of|in)\\s+(?:the\\s+)?(?:list|asking)(?:\\s+price)?)?`,
      'gi',
    )
    text = text.replace(pattern, ' ')
  }
  return text
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+([,:;)])/g, '$1')
    .replace(/([,:;])(?=[,:;])/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,:;.-]+|[\s,:;.!?-]+$/g, '')
}

/** The place an article is about, short: the ZIP, or the city of a several-ZIP sheet; '' for evergreen sheets. */
export function shortPlace(sheet: FactSheet): string {
  if (sheet.mode === 'evergreen' || sheet.zipCodes.length === 0) return ''
  if (sheet.zipCodes.length === 1) return sheet.location
  return /^(.+?) ZIPs /.exec(sheet.location)?.[1] ?? sheet.zipCodes[0]!
}

function mentionsPlace(text: string, sheet: FactSheet): boolean {
  const lower = text.toLowerCase()
  if (sheet.zipCodes.some((zip) => new RegExp(`(?<!\\d)${zip}(?!\\d)`).test(text))) return true
  const city = /\(([^,)]+)/.exec(sheet.location)?.[1] ?? /^(.+?)(?:,| ZIPs )/.exec(sheet.location)?.[1]
  return Boolean(city && lower.includes(city.toLowerCase()))
}

/** Longest title the writers give a post (a discovered topic fits whole; blog_posts.title allows 300). */
export const TITLE_MAX_LENGTH = 160

/** Cuts a title at a word boundary to at most `max` characters (no ellipsis: it is a headline). */
function cutTitle(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max + 1)
  const space = cut.lastIndexOf(' ')
  return (space > 0 ? cut.slice(0, space) : text.slice(0, max)).replace(/[\s,;:.-]+$/, '')
}

/**
 * The title an article about `topic` gets from the built-in writer, and the fallback when a model's title drops
 * the topic's key terms: the topic itself (figures the sheet does not hold removed, normal spacing, first letter
 * capitalized), with " in <place>" added when a local article's topic does not name its place; at most 160
 * characters, cut at a word boundary.
 */
export function titleForTopic(topic: string, sheet: FactSheet): string {
  let title = withoutUnsupportedFigures(topic, sheet)
  const place = shortPlace(sheet)
  if (place && !mentionsPlace(title, sheet)) title = `${title} in ${place}`
  title = cutTitle(title, TITLE_MAX_LENGTH)
  return title.charAt(0).toUpperCase() + title.slice(1)
}

function guideSectionsHtml(guide: GuideTemplate): string[] {
  return guide.sections.map(
    (section) =>
      `<h2>${escapeHtml(section.heading)}</h2>${section.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('')}` +
      (section.steps.length > 0
        ? `<ul>${section.steps.map((step) => `<li>${escapeHtml(step)}</li>`).join('')}</ul>`
        : ''),
  )
}

/** Sentences about the site-wide closed-sales aggregate of an evergreen sheet (data.ts buildEvergreenSheet). */
function readOverview(sheet: FactSheet): string[] {
  const get = (name: string) => sheet.facts.find((fact) => fact.key === `overview:${name}`)
  const recent = get('recent_sales')
  const zips = get('zip_codes')
  const days = get('window_days')
  const ratio = get('recent_sale_to_list')
  const dom = get('recent_median_dom')
  const price = get('recent_median_price')
  const lines: string[] = []
  if (recent && days) {
    const period = recent.period.split(' to ').map(longDate).join(' to ')
    lines.push(
      `AgentInsight recorded ${formatFact(recent)} closed sales${zips ? ` across ${formatFact(zips)} ZIP codes` : ''} in the last ${formatFact(days)} days of data, from ${period}.`,
    )
  }
  if (ratio) {
    lines.push(
      ratio.value >= 100
        ? `Across those sales, homes sold at ${formatFact(ratio)} of list price on average: plan for offers at or above asking where homes sell fast.`
        : `Across those sales, homes sold at ${formatFact(ratio)} of list price on average, so there was room below asking to negotiate.`,
    )
  }
  if (dom) lines.push(`The median home spent ${formatFact(dom)} on the market before it sold.`)
  if (price) lines.push(`The median closed price was ${formatFact(price)}.`)
  return lines
}

/**
 * The built-in writer: an honest article from the fact sheet, shaped by the topic's angle.
 * - local sheet: the topic's guide sections (guides.ts) around the area's figures (table, readings for sellers and
 *   buyers, credit lines);
 * - evergreen sheet: the guide for the topic's type, plus the site-wide closed-sales figures when there are any.
 * The title is the topic's (titleForTopic); figures come only from the sheet, never from the topic text.
 * Without a topic (''), a local sheet gets a data title ("<place> housing market: ...").
 */
export function writeBuiltInArticle(sheet: FactSheet, topic = ''): DraftArticle {
  const guide = guideTemplate(guideTypeOf(topic))
  const list = (items: string[]) => `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`

  if (sheet.mode === 'evergreen') {
    const overview = readOverview(sheet)
    const title = titleForTopic(topic || guide.summary, sheet)
    const sections = [
      `<p>${escapeHtml(guide.intro)}</p>`,
      ...guideSectionsHtml(guide),
      overview.length > 0
        ? `<h2>What recent closed sales show</h2>${overview.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}${factsTableHtml(sheet)}`
        : '',
    ].filter(Boolean)
    return {
      title,
      html: sections.join('\n'),
      excerpt: guide.summary,
      metaTitle: title,
      metaDescription: guide.summary,
      insights: [...guide.sections.map((section) => section.steps[0]!).filter(Boolean), ...overview].slice(0, 8),
    }
  }

  const reading = readFigures(sheet)
  const title = topic
    ? titleForTopic(topic, sheet)
    : `${sheet.location} housing market: ${reading.headline ?? 'what the latest figures show'}`
  const sources =
    sheet.attributions.length > 0
      ? "Redfin's market tracker and the closed sales recorded on AgentInsight"
      : 'the closed sales recorded on AgentInsight'
  const sections = [
    `<p>${topic ? `${escapeHtml(guide.intro)} ` : ''}The figures for ${escapeHtml(sheet.location)} come from ${sources}. Each figure below carries its period and source; nothing is estimated.</p>`,
    `<h2>The market in numbers</h2>${factsTableHtml(sheet)}`,
    `<h2>What the figures say</h2>${reading.insights.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}`,
    reading.seller.length > 0 ? `<h2>What sellers can do with them</h2>${list(reading.seller)}` : '',
    reading.buyer.length > 0 ? `<h2>What buyers can do with them</h2>${list(reading.buyer)}` : '',
    ...(topic ? guideSectionsHtml(guide) : []),
    `<h2>How to use these figures with an agent</h2>${list([
      'Ask every agent you interview for their own sale-to-list ratio and days on market, and compare them with the area figures above.',
      `Compare agents who closed sales in ${sheet.zipCodes.join(', ')} on AgentInsight before you sign a listing agreement.`,
      "Request a free agent report to see an agent's recent sales next to these market figures.",
    ])}`,
  ].filter(Boolean)
  const excerpt = reading.insights[0] ?? `Market figures for ${sheet.location}, with their period and source.`
  return {
    title,
    html: sections.join('\n'),
    excerpt,
    metaTitle: title,
    metaDescription: reading.insights.slice(0, 2).join(' ') || excerpt,
    insights: reading.insights,
  }
}

/** The fact list as the model sees it: one line per figure with its period and source. */
export function factsForPrompt(sheet: FactSheet): string {
  return sheet.facts.map((fact) => `- ${fact.label}: ${formatFact(fact)} (${fact.period}; ${fact.source})`).join('\n')
}

export const ARTICLE_SYSTEM_PROMPT = [
  'You write articles for AgentInsight, a US site where home buyers and sellers compare real-estate agents by their results.',
  'Audience: consumers, not agents. Tone: plain, concrete, practical; every section ends with something the reader can do.',
  'FIGURE RULE: the only numbers you may print are the FACTS given to you, printed as given (you may round to fewer decimals), the years and the period dates of those facts, and small counts up to 10 (e.g. "3 questions").',
  'Never invent statistics, prices, percentages, days or counts; when you lack a figure, say it qualitatively. Do not cite sources other than those named in the FACTS.',
  'Keep the requested angle: the title and the outline answer the topic as asked and use its key words.',
  'Output HTML only inside section bodies: <p>, <ul>, <ol>, <li>, <strong>, <em>, <h3>, <table>. No scripts, styles, images or links.',
].join('\n')

/** Word target of a model article (AI_TARGET_WORDS). */
export interface WordTarget {
  min: number
  max: number
}

function promptHeader(topic: string, sheet: FactSheet): string[] {
  const cleanTopic = withoutUnsupportedFigures(topic, sheet)
  const terms = keyTermsOf(cleanTopic)
  return [
    `Topic: ${cleanTopic}`,
    `Key words the title must keep: ${terms.join(', ')}`,
    sheet.mode === 'evergreen'
      ? 'Place: none. This is an evergreen guide: do not name a city, ZIP or state; any figure must be one of the site-wide FACTS.'
      : `Place: ${sheet.location}`,
    'FACTS:',
    sheet.facts.length > 0 ? factsForPrompt(sheet) : '(none: print no figures except small counts up to 10)',
  ]
}

const words = (value: number) => value.toLocaleString('en-US')

export function outlinePrompt(topic: string, sheet: FactSheet, target: WordTarget): string {
  return [
    ...promptHeader(topic, sheet),
    '',
    `Plan an article of ${words(target.min)}-${words(target.max)} words with 6-10 sections (h2 headings) and 2-5 key points each. Use only the FACTS for figures.`,
  ].join('\n')
}

export function articlePrompt(topic: string, sheet: FactSheet, outline: ArticleOutline, target: WordTarget): string {
  const perSection = Math.max(150, Math.round(target.min / Math.max(1, outline.sections.length)))
  return [
    ...promptHeader(topic, sheet),
    '',
    'OUTLINE:',
    JSON.stringify(outline),
    '',
    `Write the full article from the outline: ${words(target.min)}-${words(target.max)} words in all, each section body about ${words(perSection)} words of HTML.`,
    'title <= 70 characters and keeps the key words; meta_title <= 60 characters; meta_description <= 160 characters; excerpt 1-2 sentences.',
    'insights: 3-8 one-sentence takeaways, each resting on one of the FACTS or on a step the reader can take.',
    sheet.facts.length > 0
      ? 'The data table and the source credit lines are appended for you; do not repeat the table.'
      : 'Do not add a data table.',
  ].join('\n')
}

/**
 * A model article as a DraftArticle: h2 per section, then the facts table and credits (when there are facts).
 * A title that does not share the topic's key terms (normalize.ts sharesKeyTerms) is replaced by titleForTopic.
 */
export function draftFromModel(article: Article, sheet: FactSheet, topic = ''): DraftArticle {
  const body = article.sections.map((section) => `<h2>${escapeHtml(section.heading)}</h2>\n${section.html}`).join('\n')
  const title =
    !topic || sharesKeyTerms(article.title, withoutUnsupportedFigures(topic, sheet))
      ? article.title
      : titleForTopic(topic, sheet)
  return {
    title,
    html: sheet.facts.length > 0 ? `${body}\n<h2>The figures behind this article</h2>${factsTableHtml(sheet)}` : body,
    excerpt: article.excerpt,
    metaTitle: article.meta_title,
    metaDescription: article.meta_description,
    insights: article.insights,
  }
}

/** Plain text the figure check reads: title, excerpt, meta and the article body without tags. */
export function checkedText(draft: DraftArticle): string {
  return [
    draft.title,
    draft.excerpt,
    draft.metaTitle,
    draft.metaDescription,
    ...draft.insights,
    htmlToText(sanitizePostHtml(draft.html)),
  ].join('\n')
}

/** The row a draft becomes: sanitized content, meta cut to 60/160 characters, density and insights counted. */
export function articleRow(draft: DraftArticle): ArticleRow {
  const content = sanitizePostHtml(draft.html)
  const insights = distinctInsights(draft.insights)
  const title = truncate(htmlToText(draft.title), 300)
  return {
    title,
    slugBase: slugify(title) || 'article',
    content,
    excerpt: truncate(htmlToText(draft.excerpt), 300),
    meta_title: truncate(htmlToText(draft.metaTitle), 60),
    meta_description: truncate(htmlToText(draft.metaDescription), 160),
    hack_density_score: hackDensityScore(content),
    insights,
    unique_insights: insights.length,
  }
}
