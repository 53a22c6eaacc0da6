import path from 'node:path'
import { describe, expect, it } from 'vitest'

import {
  authoredInlineScripts,
  authoredScriptTexts,
  usedDirectives,
  inlineScripts,
  scriptHash,
  supabaseOrigin,
  withPolicy,
} from './csp-hashes.ts'

const root = path.resolve(import.meta.dirname, '../..')

describe('CSP of the built site', () => {
  it('reads the inline executable scripts of a page only', () => {
    const html =
      '<script>a()</script><script type="module">b()</script><script src="/x.js"></script><script type="application/ld+json">{}</script>'
    expect(inlineScripts(html)).toEqual(['a()', 'b()'])
  })

  it('takes the is:inline scripts of a source as written, and refuses define:vars', () => {
    expect(
      authoredInlineScripts('<p/><script is:inline>\n  go()\n</script><script>bundled()</script>', 'Page.astro'),
    ).toEqual(['\n  go()\n'])
    // a script tag named in the frontmatter's doc comment or in an HTML comment is not a script, and does not
    // swallow the real one after it
    expect(
      authoredInlineScripts(
        '---\n/** loads every `<script type="x">` */\n---\n\n<script is:inline>\n  go()\n</script>',
        'Loader.astro',
      ),
    ).toEqual(['\n  go()\n'])
    expect(authoredInlineScripts('<!-- <script is:inline>old()</script> --><script is:inline>go()</script>')).toEqual([
      'go()',
    ])
    expect(() => authoredInlineScripts('<script is:inline define:vars={{ a }}>a</script>', 'Bad.astro')).toThrow(
      'Bad.astro: an is:inline script with define:vars cannot be hashed; pass the values as data-* attributes',
    )
  })

  it('knows the scripts the site authors, and a script that came with data is not among them', async () => {
    const authored = await authoredScriptTexts(root, [
      { name: 'interaction', entrypoint: './src/lib/client-interaction.ts' },
    ])
    const island = (await import('astro/runtime/server/astro-island.prebuilt.js')).default
    expect(authored.has(island)).toBe(true)
    expect([...authored].some((text) => text.includes("console.warn('404 Not Found:'"))).toBe(true)
    expect([...authored].some((text) => text.includes('astro:interaction'))).toBe(true)
    expect(authored.has('alert(document.cookie)')).toBe(false)
    // only the directives the site's files use: client:media is used nowhere, client:visible on the home page
    const prebuilt = async (name: string) =>
      ((await import(`astro/runtime/client/${name}.prebuilt.js`)) as { default: string }).default
    expect(authored.has(await prebuilt('visible'))).toBe(true)
    expect(authored.has(await prebuilt('media'))).toBe(false)
  })

  it('reads the client directives a source uses', () => {
    expect([...usedDirectives('<A client:load /><B client:interaction x={1} /><C client:only="react" />')]).toEqual([
      'load',
      'interaction',
      'only',
    ])
    expect(usedDirectives('<A />').size).toBe(0)
  })

  it("replaces 'unsafe-inline' in script-src with the hashes and names the project in connect-src", () => {
    const text =
      "/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self' {PUBLIC_SUPABASE_URL}\n"
    expect(withPolicy(text, [scriptHash('a()')], supabaseOrigin('https://abcd.supabase.co/'))).toBe(
      `/*\n  Content-Security-Policy: default-src 'self'; script-src 'self' ${scriptHash('a()')}; style-src 'self' 'unsafe-inline'; connect-src 'self' https://abcd.supabase.co\n`,
    )
    expect(() => supabaseOrigin(undefined)).toThrow('PUBLIC_SUPABASE_URL is not set')
  })
})
