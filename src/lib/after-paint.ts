/**
 * Scripts that load after the first paint. Astro emits each processed `<script>` of a component (the header's menu,
 * Share, the blog filter) as `<script type="module" src="/_astro/….js">`, which the browser requests while it parses
 * the page, at high priority, before it has painted anything. None of them is needed to draw the page, and on a slow
 * mobile connection those requests compete with the page itself for the first round trips (Lighthouse's simulated
 * slow 4G counts every request that started before the first paint on the path to it).
 *
 * So on every page that carries the loader (BaseLayout's AfterPaint component, src/components/AfterPaint.astro),
 * src/middleware.ts rewrites those tags to an inert type, `<script type="text/x-after-paint" src="…">`, which the
 * browser neither fetches nor runs, and the loader imports each one once the browser reports the first contentful
 * paint and has painted once more (the whole document on screen, not only the top a long page's first paint may show;
 * 3 s at the latest). They run in the order their imports complete, as independent modules:
 * none of them relies on another having run. Islands load by their own directives; on a page whose islands all wait
 * for the visitor (visible, interaction), Astro's inline island runtime and directive scripts are taken out too and load
 * after the paint as one module (deferIslandRuntime below, ./island-hydration.ts).
 */
import islandRuntime from 'astro/runtime/server/astro-island.prebuilt.js'

import { DEFERRED_DIRECTIVE_NAMES } from './island-directive-names'

/** The type an after-paint script gets: not a JavaScript type, so the browser neither fetches nor runs it. */
export const AFTER_PAINT_TYPE = 'text/x-after-paint'

/** The attribute on the loader's script element; a page without it is left as it is. */
export const AFTER_PAINT_LOADER_ATTRIBUTE = 'data-after-paint-loader'

/** A processed script tag as Astro emits it: a module from the build's /_astro/ directory and nothing else. */
const PROCESSED_SCRIPT = /<script type="module" src="(\/_astro\/[^"<>\s]+\.js)"><\/script>/g

/**
 * `html` with every processed module script (see the module comment) turned into an after-paint script, when the
 * page carries the loader; otherwise `html` unchanged (the scripts would never run without it).
 */
export function deferModuleScripts(html: string): string {
  if (!html.includes(AFTER_PAINT_LOADER_ATTRIBUTE)) return html
  return html.replace(
    PROCESSED_SCRIPT,
    (_tag, src: string) => `<script type="${AFTER_PAINT_TYPE}" src="${src}"></script>`,
  )
}

/**
 * The client directives whose islands wait for the visitor (to scroll to them, to touch them);
 * ./island-directive-names.ts lists them for both sides. Not `idle`: an idle island (results, compare) is the page's live
 * content, drawn as soon as the browser is idle, and waiting for the paint as well would only make the visitor wait
 * longer for it; tried on both pages, it bought nothing measurable either (Lighthouse: the same LCP, compare's
 * blocking time 113 ms deferred and 114 ms not).
 */
export const DEFERRED_DIRECTIVES: ReadonlySet<string> = new Set(DEFERRED_DIRECTIVE_NAMES)

/** IslandHydration.astro's processed script, once deferModuleScripts has made it an after-paint script. */
const ISLAND_HYDRATION_SCRIPT =
  /<script type="text\/x-after-paint" src="\/_astro\/IslandHydration\.astro_astro_type_script_index_0_lang\.[\w-]+\.js"><\/script>/

/** The `client` directive of each island of the page. */
const ISLAND_DIRECTIVE = /<astro-island\b[^>]*?\sclient="([^"]*)"/g

/**
 * A directive's inline script as Astro writes it (a minified function assigned to `self.Astro[name]`, then the
 * `astro:<name>` event; a custom directive's text, compiled by Astro, ends with a line break), for the directives this
 * module defers.
 */
const DIRECTIVE_SCRIPT = new RegExp(
  String.raw`<script>\(\(\)=>\{(?:(?!<\/script>)[\s\S])*?\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.(${DEFERRED_DIRECTIVE_NAMES.join('|')})=\w+;window\.dispatchEvent\(new Event\("astro:\1"\)\);\}\)\(\);\s*<\/script>`,
  'g',
)

/**
 * `html` (already through deferModuleScripts) with Astro's inline island runtime and waiting directives' scripts
 * taken out, when every island of the page uses one of DEFERRED_DIRECTIVES; IslandHydration.astro's after-paint
 * script then loads them. Otherwise that script is taken out and Astro's inline scripts stay: on a page without
 * islands it has nothing to do, and an island that hydrates without the visitor (`load`, `only`, `idle`) should not
 * wait for the paint. The same when the page's runtime is not Astro's prebuilt text (another Astro version). A page
 * without the loader or without the script is returned as it is.
 */
export function deferIslandRuntime(html: string): string {
  if (!html.includes(AFTER_PAINT_LOADER_ATTRIBUTE) || !ISLAND_HYDRATION_SCRIPT.test(html)) return html
  const directives = [...html.matchAll(ISLAND_DIRECTIVE)].map((match) => match[1] ?? '')
  const runtime = `<script>${islandRuntime}</script>`
  const deferrable =
    directives.length > 0 &&
    directives.every((directive) => DEFERRED_DIRECTIVES.has(directive)) &&
    html.includes(runtime)
  if (!deferrable) return html.replace(ISLAND_HYDRATION_SCRIPT, '')
  return html.replace(runtime, '').replace(DIRECTIVE_SCRIPT, '')
}
