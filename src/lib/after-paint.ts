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
 * none of them relies on another having run. Islands are not touched: Astro's island runtime
 * loads them by its own directives.
 */

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
