import { describe, expect, it } from 'vitest'

import { classTokens, parseCss, printPrunedCss, prunePageStyles, requiredClasses, unescapeCss } from './page-css'

/** A sheet shaped like Tailwind v4's minified output: layers, theme, base, utilities, variants, @property. */
const SHEET =
  '/*! tailwindcss v4 | MIT License */' +
  '@layer theme,base,components,utilities;' +
  '@layer theme{:root,:host{--color-brand-700:oklch(48.8% .243 264.376);--spacing:.25rem}}' +
  '@layer base{*,:after,:before{box-sizing:border-box}[hidden]:where(:not([hidden=until-found])){display:none!important}}' +
  '@layer utilities{' +
  '.hidden{display:none}.mt-2{margin-top:calc(var(--spacing)*2)}.mt-0\\.5{margin-top:calc(var(--spacing)*.5)}' +
  '.text-brand-700{color:var(--color-brand-700)}' +
  '.group-hover\\:underline:is(:where(.group):hover *){text-decoration-line:underline}' +
  '.space-y-2>:not(:last-child){margin-block-end:0}' +
  '.\\[\\&_p\\]\\:mt-2 p{margin-top:calc(var(--spacing)*2)}' +
  '.aria-\\[current\\=page\\]\\:font-semibold[aria-current=page]{font-weight:600}' +
  '@media (hover:hover){.hover\\:text-brand-700:hover{color:var(--color-brand-700)}}' +
  '@media (width>=48rem){.md\\:block{display:block}.md\\:hidden{display:none}}' +
  '.prose .lead,.card{padding:0}' +
  '}' +
  '@property --tw-space-y-reverse{syntax:"*";inherits:false;initial-value:0}'

describe('parseCss and printPrunedCss', () => {
  it('print the sheet back unchanged when every class is used', () => {
    const nodes = parseCss(SHEET)
    const every = new Set(
      JSON.stringify(nodes)
        .match(/"required":\[\[.*?\]\]/g)!
        .flatMap((list) => JSON.parse(list.slice('"required":'.length)) as string[][])
        .flat(),
    )
    expect(printPrunedCss(nodes, every)).toBe(SHEET)
  })

  it('keep only the utilities whose classes the page has, in their media queries, and everything else whole', () => {
    const out = printPrunedCss(parseCss(SHEET), new Set(['mt-2', 'md:block', 'group-hover:underline']))
    expect(out).toBe(
      '/*! tailwindcss v4 | MIT License */' +
        '@layer theme,base,components,utilities;' +
        '@layer theme{:root,:host{--color-brand-700:oklch(48.8% .243 264.376);--spacing:.25rem}}' +
        '@layer base{*,:after,:before{box-sizing:border-box}[hidden]:where(:not([hidden=until-found])){display:none!important}}' +
        '@layer utilities{' +
        '.mt-2{margin-top:calc(var(--spacing)*2)}' +
        '.group-hover\\:underline:is(:where(.group):hover *){text-decoration-line:underline}' +
        '@media (width>=48rem){.md\\:block{display:block}}' +
        '}' +
        '@property --tw-space-y-reverse{syntax:"*";inherits:false;initial-value:0}',
    )
  })

  it('keep a rule with several selectors when one of them can match', () => {
    expect(printPrunedCss(parseCss(SHEET), new Set(['card']))).toContain('.prose .lead,.card{padding:0}')
    expect(printPrunedCss(parseCss(SHEET), new Set(['prose']))).not.toContain('.prose .lead')
  })
})

describe('requiredClasses', () => {
  it('unescape class names and leave out the classes inside functional pseudo-classes', () => {
    expect(requiredClasses('.mt-0\\.5')).toEqual([['mt-0.5']])
    expect(requiredClasses('.aria-\\[current\\=page\\]\\:font-semibold[aria-current=page]')).toEqual([
      ['aria-[current=page]:font-semibold'],
    ])
    expect(requiredClasses('.group-hover\\:x:is(:where(.group):hover *)')).toEqual([['group-hover:x']])
    expect(requiredClasses('.prose .lead,.card')).toEqual([['prose', 'lead'], ['card']])
    expect(requiredClasses(':root,:host')).toEqual([[], []])
  })

  it('read hexadecimal escapes', () => {
    expect(unescapeCss('\\32 xl\\:flex')).toBe('2xl:flex')
  })
})

describe('classTokens', () => {
  it('split HTML and script text into the class names they may hold, entities decoded', () => {
    const tokens = classTokens('<p class="[&amp;_p]:mt-2 aria-[current=page]:font-semibold">x</p>')
    expect(tokens.has('[&_p]:mt-2')).toBe(true)
    expect(tokens.has('aria-[current=page]:font-semibold')).toBe(true)
    expect(classTokens('className: `mt-3 ${open ? "grid" : \'hidden\'}`').has('hidden')).toBe(true)
  })
})

describe('prunePageStyles', () => {
  const page = (body: string) =>
    `<html><head><style>${SHEET}</style><style>astro-island{display:contents}</style></head><body>${body}</body></html>`

  it("keep the rules of the page's own classes and of its islands' code, and leave other style elements alone", () => {
    const html = prunePageStyles(
      page('<p class="mt-2">a</p><astro-island component-url="/_astro/search-results.Cs6hmJ_2.js"></astro-island>'),
      { always: ['md:hidden'], islands: { 'search-results': ['text-brand-700'], other: ['hidden'] } },
    )
    expect(html).toContain('.mt-2{')
    expect(html).toContain('.md\\:hidden{')
    expect(html).toContain('.text-brand-700{')
    expect(html).not.toContain('.hidden{')
    expect(html).not.toContain('.mt-0\\.5{')
    expect(html).toContain('<style>astro-island{display:contents}</style>')
  })

  it("keep every island's rules when an island on the page is not a known one", () => {
    const html = prunePageStyles(page('<astro-island component-url="/_astro/unknown.X.js"></astro-island>'), {
      always: [],
      islands: { 'search-results': ['text-brand-700'], other: ['hidden'] },
    })
    expect(html).toContain('.text-brand-700{')
    expect(html).toContain('.hidden{')
  })

  it('keep only the custom properties the page can read, and a repeated @property once', () => {
    const sheet =
      '@layer properties{@supports (-moz-orient:inline){*,:before{--tw-space-y-reverse:0;--tw-border-style:solid}}}' +
      '@layer theme{:root,:host{--color-brand-700:oklch(48.8% .243 264.376);--color-rose-300:oklch(81% .117 11.638);' +
      '--color-sky-500:oklch(68.5% .169 237.323);--spacing:.25rem;--font-sans:ui-sans-serif;' +
      '--default-font-family:var(--font-sans)}}' +
      '@layer base{html{font-family:var(--default-font-family)}}' +
      '@layer utilities{.mt-2{margin-top:calc(var(--spacing)*2)}.text-brand-700{color:var(--color-brand-700)}' +
      '.space-y-2>:not(:last-child){--tw-space-y-reverse:0;margin-block-end:calc(var(--spacing)*2*var(--tw-space-y-reverse))}}' +
      '@property --tw-space-y-reverse{syntax:"*";inherits:false;initial-value:0}' +
      '@property --tw-border-style{syntax:"*";inherits:false;initial-value:solid}' +
      '@property --tw-space-y-reverse{syntax:"*";inherits:false;initial-value:0}'
    const html = prunePageStyles(
      `<html><head><style>${sheet}</style></head><body><p class="mt-2">a</p>` +
        '<svg><rect fill="var(--color-rose-300)"/></svg></body></html>',
      { always: ['space-y-2'], islands: {} },
    )
    // read by a kept utility, by the base layer through another theme value, by the markup
    expect(html).toContain('--spacing:.25rem')
    expect(html).toContain('--font-sans:ui-sans-serif')
    expect(html).toContain('--color-rose-300:oklch(81% .117 11.638)')
    expect(html).toContain('*,:before{--tw-space-y-reverse:0}')
    expect(html.match(/@property --tw-space-y-reverse/g)).toHaveLength(1)
    // read by nothing on the page: the utility that reads it (.text-brand-700) is not used
    expect(html).not.toContain('--color-brand-700:')
    expect(html).not.toContain('--color-sky-500')
    expect(html).not.toContain('--tw-border-style')
  })

  it('keep a base rule only when the page or its client code can hold the elements it names', () => {
    const sheet =
      '@layer base{*,:after,:before{box-sizing:border-box}abbr:where([title]){text-decoration:underline dotted}' +
      'h1,h2{font-size:inherit}table{border-collapse:collapse}:where(select:is([multiple])) optgroup{font-weight:bolder}' +
      'button,::file-selector-button{font:inherit}}@layer utilities{.a{color:red}}'
    const island = '<astro-island component-url="/_astro/sales.B1.js"></astro-island>'
    const html = prunePageStyles(`<html><head><style>${sheet}</style></head><body><h2>x</h2>${island}</body></html>`, {
      always: [],
      islands: { sales: ['table', 'mt-2'] },
    })
    expect(html).toContain('*,:after,:before{box-sizing:border-box}') // names no element
    expect(html).toContain('h1,h2{font-size:inherit}') // one of its alternatives is on the page
    expect(html).toContain('table{border-collapse:collapse}') // the island's code writes <table
    expect(html).toContain('button,::file-selector-button{font:inherit}') // a pseudo-element alone
    expect(html).not.toContain('abbr')
    expect(html).not.toContain('optgroup')
  })

  it('keep a custom property that client code names', () => {
    const sheet = '@layer theme{:root,:host{--color-sky-500:oklch(68.5% .169 237.323)}}@layer utilities{.a{color:red}}'
    const chart = '<astro-island component-url="/_astro/chart.B1.js"></astro-island>'
    const html = prunePageStyles(`<html><head><style>${sheet}</style></head><body>${chart}</body></html>`, {
      always: [],
      islands: { chart: ['fill:var(--color-sky-500)'] },
    })
    expect(html).toContain('--color-sky-500')
  })

  it('leave a page without a Tailwind sheet as it is', () => {
    const html = '<html><head><style>p{color:red}</style></head><body class="mt-2"></body></html>'
    expect(prunePageStyles(html, { always: [], islands: {} })).toBe(html)
  })
})
