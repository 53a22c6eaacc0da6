import islandRuntime from 'astro/runtime/server/astro-island.prebuilt.js'
import { describe, expect, it } from 'vitest'

import { AFTER_PAINT_LOADER_ATTRIBUTE, deferIslandRuntime, deferModuleScripts } from './after-paint'

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

describe('deferIslandRuntime', () => {
  const hydration =
    '<script type="text/x-after-paint" src="/_astro/IslandHydration.astro_astro_type_script_index_0_lang.Ab-1.js"></script>'
  const runtime = `<script>${islandRuntime}</script>`
  // a custom directive's script (interaction) ends with a line break, as Astro compiles it
  const directive = (name: string) =>
    `<script>(()=>{var a=(s,i,o)=>{};(self.Astro||(self.Astro={})).${name}=a;window.dispatchEvent(new Event("astro:${name}"));})();${name === 'interaction' ? '\n' : ''}</script>`
  const island = (client: string) =>
    `<astro-island uid="x" component-url="/_astro/a.js" renderer-url="/_astro/client.js" props="{}" ssr client="${client}" opts="{}"><div>ssr</div></astro-island>`
  const page = (body: string) => `<html><body>${body}${hydration}${loader}</body></html>`

  it('takes the runtime and the waiting directives out of a page whose islands all wait, and keeps the module', () => {
    const html = page(
      `<style>astro-island{display:contents}</style>${directive('interaction')}${runtime}${island('interaction')}${directive('visible')}${island('visible')}`,
    )
    expect(deferIslandRuntime(html)).toBe(
      page(`<style>astro-island{display:contents}</style>${island('interaction')}${island('visible')}`),
    )
  })

  it('leaves Astro its scripts and drops the module where an island hydrates without the visitor', () => {
    const body = `${directive('load')}${runtime}${island('load')}${directive('visible')}${island('visible')}`
    expect(deferIslandRuntime(page(body))).toBe(`<html><body>${body}${loader}</body></html>`)
    const idle = `${directive('idle')}${runtime}${island('idle')}`
    expect(deferIslandRuntime(page(idle))).toBe(`<html><body>${idle}${loader}</body></html>`)
  })

  it('drops the module from a page without islands', () => {
    expect(deferIslandRuntime(page('<main></main>'))).toBe(`<html><body><main></main>${loader}</body></html>`)
  })

  it("keeps a runtime that is not this Astro version's text, and drops the module", () => {
    const body = `${directive('visible')}<script>(()=>{/* another runtime */})();</script>${island('visible')}`
    expect(deferIslandRuntime(page(body))).toBe(`<html><body>${body}${loader}</body></html>`)
  })

  it('leaves a page without the loader as it is', () => {
    const html = `<html><body>${runtime}${island('visible')}${hydration}</body></html>`
    expect(deferIslandRuntime(html)).toBe(html)
  })
})
