/**
 * Reads a `_headers` file (the format of Netlify and Cloudflare Pages: a path pattern on its own line, then indented
 * `Name: value` lines; `#` starts a comment; `*` in a pattern matches any run of characters, `:name` one segment)
 * and answers which headers a path gets: the headers of every matching rule, in file order (a later rule's value
 * for the same name wins). The local static server applies public/_headers with it, so tests see production's
 * headers.
 */
import fs from 'node:fs'

export interface HeaderRule {
  pattern: string
  matcher: RegExp
  headers: [string, string][]
}

/** Parses the text of a `_headers` file. @throws Error naming the line of a header outside any rule. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = []
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return
    if (!/^\s/.test(line)) {
      const pattern = line.trim()
      const source = pattern
        .split(/(\*|:[A-Za-z]\w*)/)
        .map((part) =>
          part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')
      rules.push({ pattern, matcher: new RegExp(`^${source}$`), headers: [] })
      return
    }
    const rule = rules.at(-1)
    const match = /^\s+([^:\s]+):\s*(.*)$/.exec(line)
    if (!rule || !match) throw new Error(`_headers line ${index + 1}: expected "Name: value" under a path pattern`)
    rule.headers.push([match[1]!, match[2]!.trim()])
  })
  return rules
}

/** The headers for `pathname`, from every rule that matches it. */
export function headersFor(rules: HeaderRule[], pathname: string): Map<string, string> {
  const result = new Map<string, string>()
  for (const rule of rules)
    if (rule.matcher.test(pathname)) for (const [name, value] of rule.headers) result.set(name, value)
  return result
}

/** Reads and parses a `_headers` file; an absent file means no rules. */
export function readHeadersFile(file: string): HeaderRule[] {
  return fs.existsSync(file) ? parseHeadersFile(fs.readFileSync(file, 'utf8')) : []
}
