import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'

import { inlineScriptHashes, withScriptHashes } from './csp-hashes.ts'

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('CSP script hashes', () => {
  it('hashes inline executable scripts only', () => {
    const html =
      '<script>a()</script><script type="module">b()</script><script src="/x.js"></script><script type="application/ld+json">{}</script>'
    expect(inlineScriptHashes(html)).toEqual([hash('a()'), hash('b()')])
  })

  it("replaces 'unsafe-inline' in script-src with the hashes, leaving style-src alone", () => {
    const text =
      "/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'\n"
    expect(withScriptHashes(text, ["'sha256-x'"])).toBe(
      "/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-x'; style-src 'self' 'unsafe-inline'\n",
    )
  })
})
