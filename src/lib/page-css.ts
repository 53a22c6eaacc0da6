/**
 * Per-page CSS: each page inlines only the utility rules of the site's Tailwind sheet that the page can use, instead
 * of the whole site's utilities (about 47 KB of CSS in every page before; an article needs about a third of it).
 *
 * Why: the stylesheet is inlined ahead of the content so that it costs no request before the first paint, which made
 * every page's HTML carry it. On a slow mobile connection the extra kilobytes push the HTML past the first round trip
 * of a new connection (about 14 KB compressed), and the browser parses and matches every rule before it paints.
 *
 * What a page keeps (src/middleware.ts applies this to every HTML page, prerendered or rendered on demand):
 * - every rule outside `@layer utilities` as it is (the theme's custom properties, Tailwind's base styles,
 *   `@property` and `@keyframes`), so the cascade is the same;
 * - a utility rule when every class its selector requires appears as a token in the page's HTML or in the client
 *   code the page may run (its islands and scripts, `scriptTokens`): Tailwind generates a rule only for a class
 *   written literally in a source file, so a class that a script can add at run time is in that script's source.
 *   Classes inside `:is()`, `:where()`, `:not()` and `:has()` are not required (conservative: such rules are kept).
 * - a custom property declared in the theme (`@layer theme`), in the fallback values of `@layer properties` or by
 *   `@property` only when something on the page can read it: a `var(--name)` in the kept CSS or the page's other
 *   style elements, or `--name` anywhere in the page's HTML or client code (a style attribute, a chart's colour).
 *   Tailwind emits every theme value and every `--tw-*` registration the whole site uses; a page reads a fraction.
 *   A registration repeated word for word (a component's `@apply` brings its own copy) is kept once;
 * - a rule of Tailwind's base styles (`@layer base`) only when the page can hold the elements it names: `abbr`,
 *   `sub`, `progress` or `summary` are styled on the few pages that have them (tags in the HTML, or a name in the
 *   client code's tokens, where an island's JSX writes them); a rule naming no element (`*`, `::placeholder`) stays.
 * The kept rules stay in their order and at-rules, so a page looks exactly as it did with the whole sheet.
 *
 * The parser reads the minified sheet Tailwind and Lightning CSS emit (rules and nested at-rule blocks); anything it
 * does not recognise is kept whole. It is our own because this module also runs in the static host's worker (pages
 * rendered on demand): PostCSS and postcss-selector-parser were tried and import Node's path, url, fs and util, which
 * a Cloudflare Pages worker cannot load without the nodejs_compat flag (Wrangler's build fails on them), and they
 * were no faster (bench/page-css.ts: 2.3 ms against 2.1 ms a page, the first call 32 ms against 7 ms).
 */

/** One piece of a stylesheet: a block at-rule with its children, a style rule, or text kept as it is. */
export type CssNode =
  | { kind: 'block'; prelude: string; children: CssNode[] }
  | { kind: 'rule'; selector: string; body: string; required: string[][]; elements: string[][]; reads: string[] }
  | { kind: 'raw'; text: string; reads: string[] }

/** The custom property names (without `--`) that `var()` reads in `css`, each once. */
function varReads(css: string): string[] {
  return [...new Set(Array.from(css.matchAll(/var\(\s*--([\w-]+)/g), (match) => match[1]!))]
}

/** At-rules whose blocks hold rules (parsed into children); other blocks (`@property`, `@keyframes`) stay raw. */
const GROUPING_AT_RULES = /^@(media|supports|layer|container|scope|starting-style|document)\b/

/** The index of the `}` closing the block whose `{` is at `open`, skipping strings and escapes. */
function closingBrace(css: string, open: number): number {
  let depth = 0
  for (let index = open; index < css.length; index += 1) {
    const char = css[index]
    if (char === '\\') index += 1
    else if (char === '"' || char === "'") {
      const end = css.indexOf(char, index + 1)
      index = end === -1 ? css.length : end
    } else if (char === '{') depth += 1
    else if (char === '}') {
      depth -= 1
      if (depth === 0) return index
    }
  }
  return css.length
}

/** The index of the first `{` or `;` at the top level of `css` from `start` (outside strings and brackets), or -1. */
function preludeEnd(css: string, start: number): number {
  let parens = 0
  for (let index = start; index < css.length; index += 1) {
    const char = css[index]
    if (char === '\\') index += 1
    else if (char === '"' || char === "'") {
      const end = css.indexOf(char, index + 1)
      index = end === -1 ? css.length : end
    } else if (char === '(' || char === '[') parens += 1
    else if (char === ')' || char === ']') parens -= 1
    else if (parens === 0 && (char === '{' || char === ';')) return index
  }
  return -1
}

/** Unescapes a CSS identifier (`md\:block` → `md:block`, `\31 0` → `10`). */
export function unescapeCss(identifier: string): string {
  return identifier.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([^]))/g, (_, hex: string | undefined, char: string) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : char,
  )
}

/** Removes the arguments of functional pseudo-classes (`:where(.group)` → `:where`), whose classes are not required. */
function withoutPseudoArguments(selector: string): string {
  let out = ''
  let depth = 0
  for (let index = 0; index < selector.length; index += 1) {
    const char = selector[index]!
    if (char === '\\') {
      if (depth === 0) out += selector.slice(index, index + 2)
      index += 1
    } else if (char === '(') depth += 1
    else if (char === ')') depth = Math.max(0, depth - 1)
    else if (depth === 0) out += char
  }
  return out
}

/** Splits `text` at each `separator` outside strings, brackets and escapes (a selector list, a rule body). */
function splitTopLevel(text: string, separator: ',' | ';'): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]
    if (char === '\\') index += 1
    else if (char === '"' || char === "'") {
      const end = text.indexOf(char, index + 1)
      index = end === -1 ? text.length : end
    } else if (char === '(' || char === '[') depth += 1
    else if (char === ')' || char === ']') depth -= 1
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, index))
      start = index + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** Splits a selector list at its top-level commas. */
const selectorAlternatives = (selector: string): string[] => splitTopLevel(selector, ',')

/** The classes each alternative of `selector` requires (unescaped), e.g. `.a .b:hover,.c` → [['a','b'],['c']]. */
export function requiredClasses(selector: string): string[][] {
  return selectorAlternatives(selector).map((alternative) =>
    [...withoutPseudoArguments(alternative).matchAll(/\.((?:\\[0-9a-fA-F]{1,6}\s?|\\[^]|[\w-])+)/g)].map((match) =>
      unescapeCss(match[1]!),
    ),
  )
}

/**
 * The element names each alternative of `selector` requires, lower case (`h1,h2` → [['h1'],['h2']],
 * `:where(select) optgroup` → [['optgroup']], `::placeholder` → [[]]). Names inside functional pseudo-classes are not
 * required, as with classes.
 */
export function requiredElements(selector: string): string[][] {
  return selectorAlternatives(selector).map((alternative) =>
    withoutPseudoArguments(alternative)
      .split(/[\s>+~]+/)
      .map((compound) => /^[a-zA-Z][\w-]*/.exec(compound)?.[0]?.toLowerCase())
      .filter((name): name is string => name !== undefined),
  )
}

/** Text kept as it is, with the custom properties it reads. */
const rawNode = (text: string): CssNode => ({ kind: 'raw', text, reads: varReads(text) })

/**
 * Parses a minified stylesheet into nodes. Each rule and raw node records the custom properties its `var()`s read,
 * so a page's readable set is gathered from the kept nodes without printing the sheet first.
 */
export function parseCss(css: string): CssNode[] {
  const nodes: CssNode[] = []
  let index = 0
  while (index < css.length) {
    // comments (the licence banner) are kept as they are
    if (css.startsWith('/*', index)) {
      const end = css.indexOf('*/', index + 2)
      const stop = end === -1 ? css.length : end + 2
      nodes.push(rawNode(css.slice(index, stop)))
      index = stop
      continue
    }
    if (/\s/.test(css[index]!)) {
      index += 1
      continue
    }
    const end = preludeEnd(css, index)
    if (end === -1) {
      nodes.push(rawNode(css.slice(index)))
      break
    }
    const prelude = css.slice(index, end).trim()
    if (css[end] === ';') {
      nodes.push(rawNode(css.slice(index, end + 1)))
      index = end + 1
      continue
    }
    const close = closingBrace(css, end)
    const body = css.slice(end + 1, close)
    if (prelude.startsWith('@')) {
      nodes.push(
        GROUPING_AT_RULES.test(prelude)
          ? { kind: 'block', prelude, children: parseCss(body) }
          : rawNode(css.slice(index, close + 1)),
      )
    } else if (body.includes('{')) {
      // a rule with nested rules: kept whole
      nodes.push(rawNode(css.slice(index, close + 1)))
    } else {
      nodes.push({
        kind: 'rule',
        selector: prelude,
        body,
        required: requiredClasses(prelude),
        elements: requiredElements(prelude),
        reads: varReads(body),
      })
    }
    index = close + 1
  }
  return nodes
}

/** A set of names to test against: a Set, or several looked up as one (a page's tokens and its scripts'). */
export interface NameLookup {
  has(name: string): boolean
}

/** Whether a base rule can match a page holding the elements `elements`: some alternative's elements all appear. */
function canMatchElements(rule: Extract<CssNode, { kind: 'rule' }>, elements: NameLookup): boolean {
  return rule.elements.some((names) => names.every((name) => elements.has(name)))
}

/** Whether a rule can match a page whose class tokens are `tokens`: some alternative's classes all appear. */
function canMatch(rule: Extract<CssNode, { kind: 'rule' }>, tokens: NameLookup): boolean {
  return rule.required.some((classes) => classes.every((name) => tokens.has(name)))
}

/**
 * What the printing keeps besides the utilities: `readable` lists the custom properties something on the page can
 * read; a declaration of any other in `@layer theme` or `@layer properties`, and its `@property`, are left out.
 * Without it every custom property is kept. `seenRaw` collects the `@property` rules printed so far, so a repeated
 * one is printed once.
 */
export interface PruneOptions {
  readable?: ReadonlySet<string>
  /**
   * The element names the page's HTML and client code can hold; a rule of `@layer base` (Tailwind's preflight) for
   * elements outside it (`abbr`, `sub`, `progress`, `summary`...) is left out. Without it every base rule is kept.
   */
  elements?: NameLookup
  seenRaw?: Set<string>
}

/** `body` without the declarations of custom properties outside `readable`. */
function readableDeclarations(body: string, readable: ReadonlySet<string>): string {
  return splitTopLevel(body, ';')
    .filter((declaration) => declaration.trim())
    .filter((declaration) => {
      const name = /^\s*--([\w-]+)\s*:/.exec(declaration)?.[1]
      return name === undefined || readable.has(name)
    })
    .join(';')
}

/**
 * The stylesheet of `nodes` with the utility rules no token in `tokens` can use left out (see the module comment).
 * Empty at-rule blocks inside the utilities layer are dropped; layers themselves are kept (they fix the order).
 * With `options.readable`, also the custom properties nothing on the page reads (see `PruneOptions`).
 */
export function printPrunedCss(
  nodes: readonly CssNode[],
  tokens: NameLookup,
  options: PruneOptions = {},
  within: { utilities?: boolean; properties?: boolean; base?: boolean } = {},
): string {
  const { utilities: inUtilities = false, properties: declaresProperties = false, base: inBase = false } = within
  let out = ''
  for (const node of nodes) {
    if (node.kind === 'raw') {
      const registered = /^@property\s+--([\w-]+)/.exec(node.text)?.[1]
      if (registered !== undefined && options.readable && !options.readable.has(registered)) continue
      if (registered !== undefined && options.seenRaw) {
        if (options.seenRaw.has(node.text)) continue
        options.seenRaw.add(node.text)
      }
      out += node.text
    } else if (node.kind === 'rule') {
      if (inUtilities && !canMatch(node, tokens)) continue
      if (inBase && options.elements && !canMatchElements(node, options.elements)) continue
      const body =
        declaresProperties && options.readable ? readableDeclarations(node.body, options.readable) : node.body
      if (body || !declaresProperties) out += `${node.selector}{${body}}`
    } else {
      const utilities = inUtilities || /^@layer\s+utilities\b/.test(node.prelude)
      const properties = declaresProperties || /^@layer\s+(theme|properties)\b/.test(node.prelude)
      const base = inBase || /^@layer\s+base\b/.test(node.prelude)
      const inner = printPrunedCss(node.children, tokens, options, { utilities, properties, base })
      if (inner || !(inUtilities || declaresProperties || inBase)) out += `${node.prelude}{${inner}}`
    }
  }
  return out
}

/** The custom property names (without `--`) that `var()` reads in `css`. */
function readCustomProperties(css: string, into: Set<string>): Set<string> {
  for (const name of varReads(css)) into.add(name)
  return into
}

/**
 * Adds to `into` what the nodes a page keeps read with `var()`: every node but the utility rules no token in `tokens`
 * can use (the same choice `printPrunedCss` makes without options), without printing them.
 */
function keptReads(nodes: readonly CssNode[], tokens: NameLookup, into: Set<string>, inUtilities = false) {
  for (const node of nodes) {
    if (node.kind === 'block')
      keptReads(node.children, tokens, into, inUtilities || /^@layer\s+utilities\b/.test(node.prelude))
    else if (node.kind === 'raw' || !inUtilities || canMatch(node, tokens))
      for (const name of node.reads) into.add(name)
  }
}

/** Every `--name` written in `text` (HTML or script tokens): a name the page's markup or code may set or read. */
function writtenCustomProperties(text: string, into: Set<string>): Set<string> {
  for (const match of text.matchAll(/--([\w-]+)/g)) into.add(match[1]!)
  return into
}

/**
 * The tokens of an HTML page or a script's text that could be class names: the text split at white space, quotes,
 * backticks and angle brackets, after decoding the HTML entities that can stand in a class attribute.
 */
export function classTokens(text: string, into: Set<string> = new Set()): Set<string> {
  const decoded = text.includes('&') ? text.replace(ENTITY, (entity) => ENTITIES[entity.toLowerCase()]!) : text
  for (const token of decoded.split(/[\s"'`<>]+/)) if (token) into.add(token)
  return into
}

/** The HTML entities that can stand in a class attribute, and the characters they stand for. */
const ENTITIES: Record<string, string> = Object.fromEntries(
  [
    ['&', ['amp', '#38', '#x26']],
    ['"', ['quot', '#34', '#x22']],
    ["'", ['#39', '#x27', 'apos']],
    ['<', ['lt', '#60', '#x3c']],
    ['>', ['gt', '#62', '#x3e']],
  ].flatMap(([char, names]) => (names as string[]).map((name) => [`&${name};`, char as string])),
)
const ENTITY = /&(?:amp|#38|#x26|quot|#34|#x22|#39|#x27|apos|lt|#60|#x3c|gt|#62|#x3e);/gi

/** Parsed sheets by their text: every page of a build carries the same sheet, so it is parsed once. */
const parsedSheets = new Map<string, CssNode[]>()

function parsedSheet(css: string): CssNode[] {
  let nodes = parsedSheets.get(css)
  if (!nodes) {
    nodes = parseCss(css)
    if (parsedSheets.size > 8) parsedSheets.clear()
    parsedSheets.set(css, nodes)
  }
  return nodes
}

/** The client code a page may run, as class tokens: always, and per island (by its source file's base name). */
export interface ScriptTokens {
  /** Tokens of the scripts of the layouts, components and pages (the header, compare tray, share, filters). */
  always: readonly string[]
  /** Tokens of each island's module graph, by the island's file name without extension (`search-results`). */
  islands: Readonly<Record<string, readonly string[]>>
}

/** A script's tokens as a set, with the custom property names written in them. */
interface ScriptSet {
  tokens: ReadonlySet<string>
  written: readonly string[]
}

/** The ScriptSet of each token list, made when a page first needs it (every page of a build shares the lists). */
const scriptSets = new WeakMap<readonly string[], ScriptSet>()

function scriptSet(tokens: readonly string[]): ScriptSet {
  let set = scriptSets.get(tokens)
  if (!set) {
    const written = new Set<string>()
    for (const token of tokens) if (token.includes('--')) writtenCustomProperties(token, written)
    set = { tokens: new Set(tokens), written: [...written] }
    scriptSets.set(tokens, set)
  }
  return set
}

/**
 * `html` with each inline Tailwind stylesheet (a `<style>` holding `@layer utilities`) cut to the rules the page can
 * use: tokens from the HTML itself, `scripts.always`, and the islands the page holds (an `<astro-island>` whose
 * component URL names no known island brings every island's tokens); then its custom properties cut to those the
 * page can read (see the module comment). Other `<style>` elements are left alone.
 */
export function prunePageStyles(html: string, scripts: ScriptTokens): string {
  if (!html.includes('@layer utilities')) return html
  const withoutStyles = html.replace(/<style\b[^>]*>[^]*?<\/style>/gi, ' ')
  const used = new Set<ScriptSet>([scriptSet(scripts.always)])
  for (const match of withoutStyles.matchAll(/\bcomponent-url="[^"]*\/([^/".]+)\.[^"]*"/g)) {
    const island = scripts.islands[match[1]!]
    for (const tokens of island ? [island] : Object.values(scripts.islands)) used.add(scriptSet(tokens))
  }
  // the page's own tokens and its scripts' sets, looked up as one (copying the scripts' thousands of tokens into a
  // set for every page cost more than the rest of the work)
  const pageTokens = classTokens(withoutStyles)
  const scriptTokenSets = [...used].map((set) => set.tokens)
  const tokens: NameLookup = {
    has: (name) => pageTokens.has(name) || scriptTokenSets.some((set) => set.has(name)),
  }
  const styles = /(<style\b[^>]*>)([^]*?)(<\/style>)/gi
  // first the utilities a page can use, then the custom properties those, the other styles, the markup and the
  // client code can read
  const readable = writtenCustomProperties(withoutStyles, new Set())
  for (const set of used) for (const name of set.written) readable.add(name)
  for (const [, , css] of html.matchAll(styles))
    if (css!.includes('@layer utilities')) keptReads(parsedSheet(css!), tokens, readable)
    else readCustomProperties(css!, readable)
  // the elements: the page's tags, and any token of its client code (JSX writes `<table`, split at the `<`)
  const tags = new Set<string>()
  for (const match of withoutStyles.matchAll(/<([a-zA-Z][\w-]*)/g)) tags.add(match[1]!.toLowerCase())
  const elements: NameLookup = { has: (name) => tags.has(name) || tokens.has(name) }
  const seenRaw = new Set<string>()
  return html.replace(styles, (whole, open: string, css: string, close: string) =>
    css.includes('@layer utilities')
      ? `${open}${printPrunedCss(parsedSheet(css), tokens, { readable, seenRaw, elements })}${close}`
      : whole,
  )
}
