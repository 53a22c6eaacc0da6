import { describe, expect, it } from 'vitest'

import { AFTER_PAINT_LOADER_ATTRIBUTE, deferModuleScripts } from './after-paint'

const loader = `<script ${AFTER_PAINT_LOADER_ATTRIBUTE}>/* loader */</script>`
const processed =
  '<script type="module" src="/_astro/BaseLayout.astro_astro_type_script_index_0_lang.DggXj-lq.js"></script>'

describe('deferModuleScripts', () => {
  it("turns the build's processed module scripts into inert after-paint scripts on a page with the loader", () => {
    const html = `<html><body><header></header>${processed}<main></main>${loader}</body></html>`
    expect(deferModuleScripts(html)).toBe(
      `<html><body><header></header><script type="text/x-after-paint" src="/_astro/BaseLayout.astro_astro_type_script_index_0_lang.DggXj-lq.js"></script><main></main>${loader}</body></html>`,
    )
  })

  it('leaves a page without the loader as it is: the scripts would never run', () => {
    const html = `<html><body>${processed}</body></html>`
    expect(deferModuleScripts(html)).toBe(html)
  })

  it('leaves inline scripts, scripts from elsewhere and data blocks alone', () => {
    const others = [
      '<script type="module">import("/_astro/x.js")</script>',
      '<script type="module" src="https://cdn.example.com/x.js"></script>',
      '<script type="module" src="/_astro/x.js" async></script>',
      '<script type="application/ld+json">{"@type":"Person"}</script>',
      '<script src="/_astro/classic.js"></script>',
    ].join('')
    const html = `<html><body>${others}${loader}</body></html>`
    expect(deferModuleScripts(html)).toBe(html)
  })
})
