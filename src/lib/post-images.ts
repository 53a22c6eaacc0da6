/**
 * Responsive images for blog posts (srcset widths of images kept in Supabase Storage).
 *
 * At build time each post image (the featured image and every `<img>` in the sanitized body) is downloaded once and
 * written to the built site as WebP at several widths (src/integrations/post-images.ts, with sharp), so the article
 * serves `srcset` + `sizes` from its own origin with the image's real width and height (no layout shift). Only the
 * project's own Storage public objects are transformed; others, any image whose download or decoding fails, and
 * every image where no maker is installed (the site's worker) keep their original address; a failure prints a
 * warning instead of failing the build.
 */
import { postImageMaker, type MadePostImage } from './post-image-maker'

/** Widths (CSS px) offered in `srcset`, capped at the image's own width. */
export const POST_IMAGE_WIDTHS = [320, 640, 960, 1280] as const

/** The article column is at most 48rem (768 px) wide; below that the image spans the viewport minus padding. */
export const POST_IMAGE_SIZES = '(min-width: 48rem) 48rem, calc(100vw - 2rem)'

/** What an `<img>` needs: `src` (the widest variant or the original), `srcset`/`sizes` when transformed, and size. */
export interface ResponsiveImage {
  src: string
  srcset?: string
  sizes?: string
  width?: number
  height?: number
}

/** Whether the build may fetch and transform `url`: the project's own Storage public objects (see astro.config.mjs). */
function isStorageObject(url: string, supabaseUrl: string | undefined): boolean {
  if (!supabaseUrl) return false
  try {
    const target = new URL(url)
    const base = new URL(supabaseUrl)
    return target.origin === base.origin && target.pathname.startsWith('/storage/v1/object/public/')
  } catch {
    return false
  }
}

/**
 * Images made elsewhere, by address: the local builder's patch makes an article's Storage images in Node (the same
 * maker, src/integrations/post-images.ts) and hands them to the worker that renders the article
 * (src/rerender/blog-article.astro). An address not in it is kept as it is.
 */
export type MadePostImages = Record<string, MadePostImage>

/** The widths (px) made of an image `naturalWidth` px wide: the `srcset` widths below it and its own, at most 1600. */
export const postImageWidths = (naturalWidth: number): number[] => [
  ...POST_IMAGE_WIDTHS.filter((width) => width < naturalWidth),
  Math.min(naturalWidth, 1600),
]

const cache = new Map<string, Promise<ResponsiveImage>>()

/**
 * The responsive form of the image at `url` (absolute http(s) URL): from `made` when given (never cached), else made
 * by the build's maker. Never throws: an image that cannot be transformed comes back as `{ src: url }` with a warning
 * on the build's output.
 */
export function responsiveImage(url: string, made?: MadePostImages): Promise<ResponsiveImage> {
  if (made) return Promise.resolve(Object.hasOwn(made, url) ? responsive(made[url]!) : { src: url })
  let result = cache.get(url)
  if (!result) {
    result = transform(url)
    cache.set(url, result)
  }
  return result
}

/** The `<img>` attributes of a made image. */
const responsive = (image: MadePostImage): ResponsiveImage => ({
  src: image.files.at(-1)!.path,
  srcset: image.files.map((file) => `${file.path} ${file.width}w`).join(', '),
  sizes: POST_IMAGE_SIZES,
  width: image.width,
  height: image.height,
})

async function transform(url: string): Promise<ResponsiveImage> {
  const make = postImageMaker()
  if (!make || !isStorageObject(url, import.meta.env.PUBLIC_SUPABASE_URL)) return { src: url }
  try {
    return responsive(await make(url, postImageWidths))
  } catch (error) {
    console.warn(`[post-images] kept ${url} as it is: ${(error as Error).message}`)
    return { src: url }
  }
}

const IMG_TAG = /<img\b[^>]*>/gi
const ATTRIBUTE = /([a-z-]+)="([^"]*)"/gi

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
const unescapeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/**
 * Rewrites every `<img>` of already-sanitized post HTML (sanitize-html writes double-quoted attributes) to its
 * responsive form: `srcset`, `sizes`, `width`, `height`, lazy loading and async decoding. Keeps `alt` and every other
 * attribute; an image that cannot be transformed keeps its `src` and still gets lazy loading. `made`: see
 * {@link MadePostImages}.
 */
export async function responsivePostHtml(html: string, made?: MadePostImages): Promise<string> {
  const tags = [...new Set(html.match(IMG_TAG) ?? [])]
  const replacements = new Map<string, string>()
  for (const tag of tags) {
    const attributes = new Map(
      [...tag.matchAll(ATTRIBUTE)].map((match) => [match[1]!.toLowerCase(), unescapeAttribute(match[2]!)]),
    )
    const src = attributes.get('src')
    if (!src) continue
    const image = await responsiveImage(src, made)
    attributes.set('src', image.src)
    if (image.srcset) attributes.set('srcset', image.srcset)
    if (image.sizes) attributes.set('sizes', image.sizes)
    if (image.width && image.height) {
      attributes.set('width', String(image.width))
      attributes.set('height', String(image.height))
    }
    attributes.set('loading', 'lazy')
    attributes.set('decoding', 'async')
    replacements.set(
      tag,
      `<img ${[...attributes].map(([name, value]) => `${name}="${escapeAttribute(value)}"`).join(' ')}>`,
    )
  }
  return html.replace(IMG_TAG, (tag) => replacements.get(tag) ?? tag)
}

/**
 * The Storage images a post shows: its featured image and each `<img>` of its rendered body whose address is one of
 * `supabaseUrl`'s public Storage objects, each once.
 */
export function storageImageUrls(
  featuredImageUrl: string | null,
  html: string,
  supabaseUrl: string | undefined,
): string[] {
  const sources = [...(html.match(IMG_TAG) ?? [])].map((tag) => {
    const src = [...tag.matchAll(ATTRIBUTE)].find((match) => match[1]!.toLowerCase() === 'src')?.[2]
    return src === undefined ? undefined : unescapeAttribute(src)
  })
  return [
    ...new Set(
      [featuredImageUrl, ...sources].filter((url): url is string => !!url && isStorageObject(url, supabaseUrl)),
    ),
  ]
}
