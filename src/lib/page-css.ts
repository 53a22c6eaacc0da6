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
 * The kept rules stay in their order and at-rules, so a page looks exactly as it did with the whole sheet.
 *
 * The sheet is parsed with PostCSS and each selector with postcss-selector-parser; the page's copy is the sheet's
 * own text with the left-out rules cut at their source offsets, so everything kept is byte for byte as Tailwind and
 * Lightning CSS emitted it.
 */
import postcss, { type ChildNode } from 'postcss'
import selectorParser from 'postcss-selector-parser'

/** A utility rule or a grouping at-rule inside `@layer utilities`, with its span in the sheet's text. */
export type UtilityNode =
  | { kind: 'rule'; start: number; end: number; required: string[][] }
  | { kind: 'group'; start: number; end: number; children: UtilityNode[] }

/** A parsed sheet: its text and the prunable nodes of its utilities layers (empty when it has none). */
export interface ParsedSheet {
  css: string
  utilities: UtilityNode[]
}

/** At-rules whose blocks hold rules (pruned inside); other at-rules inside utilities (`@keyframes`) are kept whole. */
const GROUPING_AT_RULES = /^(media|supports|layer|container|scope|starting-style|document)$/

/** The classes each alternative of `selector` requires (unescaped), e.g. `.a .b:hover,.c` → [['a','b'],['c']]. */
export function requiredClasses(selector: string): string[][] {
  const alternatives: string[][] = []
  selectorParser((root) => {
    root.each((alternative) => {
      // direct children only: classes inside :is(), :where(), :not() and :has() are not required
      const classes: string[] = []
      alternative.each((node) => {
        if (node.type === 'class') classes.push(node.value)
      })
      alternatives.push(classes)
    })
  }).processSync(selector)
  return alternatives
}

/** The prunable nodes among `nodes` (children of a utilities layer or of a group inside one). */
function utilityNodes(nodes: readonly ChildNode[]): UtilityNode[] {
  const out: UtilityNode[] = []
  for (const node of nodes) {
    const start = node.source?.start?.offset
    const end = node.source?.end?.offset
    if (start === undefined || end === undefined) continue // not from the text: never cut
    if (node.type === 'rule') {
      // a rule with nested rules is kept whole (conservative)
      if (!node.nodes.some((child) => child.type === 'rule' || child.type === 'atrule'))
        out.push({ kind: 'rule', start, end, required: requiredClasses(node.selector) })
    } else if (node.type === 'atrule' && GROUPING_AT_RULES.test(node.name) && node.nodes) {
      out.push({ kind: 'group', start, end, children: utilityNodes(node.nodes) })
    }
  }
  return out
}

/** Parses a stylesheet once and finds its utilities (`@layer utilities` blocks at any depth). */
export function parseSheet(css: string): ParsedSheet {
  const root = postcss.parse(css)
  const utilities: UtilityNode[] = []
  const isUtilities = (node: unknown): boolean =>
    node instanceof postcss.AtRule && node.name === 'layer' && node.params.trim() === 'utilities'
  root.walkAtRules('layer', (layer) => {
    // a utilities layer inside another one is collected with its parent's children
    for (let parent: unknown = layer.parent; parent; parent = (parent as ChildNode).parent)
      if (isUtilities(parent)) return
    if (isUtilities(layer) && layer.nodes) utilities.push(...utilityNodes(layer.nodes))
  })
  return { css, utilities }
}

/** Whether a rule can match a page whose class tokens are `tokens`: some alternative's classes all appear. */
function canMatch(required: readonly string[][], tokens: ReadonlySet<string>): boolean {
  return required.some((classes) => classes.every((name) => tokens.has(name)))
}

/** Adds to `cuts` the spans of `nodes` no token can use; returns whether any node is kept. */
function collectCuts(nodes: readonly UtilityNode[], tokens: ReadonlySet<string>, cuts: [number, number][]): boolean {
  let kept = false
  for (const node of nodes) {
    if (node.kind === 'rule') {
      if (canMatch(node.required, tokens)) kept = true
      else cuts.push([node.start, node.end])
    } else {
      const inner: [number, number][] = []
      if (collectCuts(node.children, tokens, inner)) {
        kept = true
        cuts.push(...inner)
      } else cuts.push([node.start, node.end]) // an at-rule left empty goes too
    }
  }
  return kept
}

/**
 * The text of `sheet` without the utility rules no token in `tokens` can use (see the module comment), and without
 * the at-rule blocks inside the utilities that are left empty; the layers themselves stay (they fix the order).
 */
export function pruneSheet(sheet: ParsedSheet, tokens: ReadonlySet<string>): string {
  const cuts: [number, number][] = []
  collectCuts(sheet.utilities, tokens, cuts)
  cuts.sort((a, b) => a[0] - b[0])
  let out = ''
  let from = 0
  for (const [start, end] of cuts) {
    out += sheet.css.slice(from, start)
    from = end
  }
  return out + sheet.css.slice(from)
}

/**
 * The tokens of an HTML page or a script's text that could be class names: the text split at white space, quotes,
 * backticks and angle brackets, after decoding the HTML entities that can stand in a class attribute.
 */
export function classTokens(text: string, into: Set<string> = new Set()): Set<string> {
  const decoded = text
    .replace(/&(amp|#38|#x26);/gi, '&')
    .replace(/&(quot|#34|#x22);/gi, '"')
    .replace(/&(#39|#x27|apos);/gi, "'")
    .replace(/&(lt|#60|#x3c);/gi, '<')
    .replace(/&(gt|#62|#x3e);/gi, '>')
  for (const token of decoded.split(/[\s"'`<>]+/)) if (token) into.add(token)
  return into
}

/** Parsed sheets by their text: every page of a build carries the same sheet, so it is parsed once. */
const parsedSheets = new Map<string, ParsedSheet>()

function parsedSheet(css: string): ParsedSheet {
  let sheet = parsedSheets.get(css)
  if (!sheet) {
    sheet = parseSheet(css)
    if (parsedSheets.size > 8) parsedSheets.clear()
    parsedSheets.set(css, sheet)
  }
  return sheet
}

/** The client code a page may run, as class tokens: always, and per island (by its source file's base name). */
export interface ScriptTokens {
  /** Tokens of the scripts of the layouts, components and pages (the header, compare tray, share, filters). */
  always: readonly string[]
  /** Tokens of each island's module graph, by the island's file name without extension (`search-results`). */
  islands: Readonly<Record<string, readonly string[]>>
}

/**
 * `html` with each inline Tailwind stylesheet (a `<style>` holding `@layer utilities`) cut to the rules the page can
 * use: tokens from the HTML itself, `scripts.always`, and the islands the page holds (an `<astro-island>` whose
 * component URL names no known island brings every island's tokens). Other `<style>` elements are left alone.
 */
export function prunePageStyles(html: string, scripts: ScriptTokens): string {
  if (!html.includes('@layer utilities')) return html
  const withoutStyles = html.replace(/<style\b[^>]*>[^]*?<\/style>/gi, ' ')
  const tokens = classTokens(withoutStyles)
  for (const token of scripts.always) tokens.add(token)
  for (const match of withoutStyles.matchAll(/\bcomponent-url="[^"]*\/([^/".]+)\.[^"]*"/g)) {
    const island = scripts.islands[match[1]!]
    const all = island ? [island] : Object.values(scripts.islands)
    for (const list of all) for (const token of list) tokens.add(token)
  }
  return html.replace(/(<style\b[^>]*>)([^]*?)(<\/style>)/gi, (whole, open: string, css: string, close: string) =>
    css.includes('@layer utilities') ? `${open}${pruneSheet(parsedSheet(css), tokens)}${close}` : whole,
  )
}
