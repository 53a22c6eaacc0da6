/**
 * The home page's hero picture as plain files named by their content, made once with sharp and written into the built
 * site's `/_astro/`, so that every renderer of the home page names the same files: the static build, the site's worker
 * (the local builder re-renders the home page through it after a blog publish, scripts/lib/site-patch.ts) and the dev
 * server. Astro's `<Picture>` cannot do that here: the Cloudflare adapter's build-time image service copies the
 * source under each variant's name (no resizing, no AVIF) and its runtime service points at `/_image` instead.
 *
 * `import hero from 'virtual:hero-picture'` gives a {@link HeroPicture}. The variants: AVIF, WebP and a PNG fallback
 * at each of {@link HERO_WIDTHS} CSS px (capped at the source's width), named `hero.<hash>.<width>w.<ext>` where the
 * hash covers the source's bytes and the encoder settings (./image-files.ts, which keeps them between builds).
 *
 * @throws at build start when the source is not an image sharp can read (the build fails naming the file).
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'
import type { Plugin } from 'vite'
import { ENCODINGS, IMAGE_CACHE_DIR, imageSize, makeVariant, variantHash, type ImageFormat } from './image-files.ts'

/** Widths (CSS px) offered in every `srcset`: up to the hero's 480 px column at 2x. */
export const HERO_WIDTHS = [360, 480, 720, 960] as const

/** One `<source>` of the picture. */
export interface HeroSource {
  /** MIME type, e.g. `image/avif`. */
  type: string
  /** `srcset` with `w` descriptors. */
  srcset: string
}

/** What the page needs to write `<picture>` and its preload. */
export interface HeroPicture {
  /** The source's size in px (the `<img>` width and height: its aspect ratio). */
  width: number
  height: number
  /** AVIF first, then WebP. */
  sources: HeroSource[]
  /** The PNG fallback: the widest variant and the `srcset` of every width. */
  src: string
  srcset: string
}

/** AVIF first, then WebP, then the PNG fallback. */
const FORMATS: readonly ImageFormat[] = ['avif', 'webp', 'png']

const VIRTUAL_ID = 'virtual:hero-picture'
const RESOLVED_ID = `\0${VIRTUAL_ID}`

interface Variant {
  /** `_astro/hero.<hash>.<width>w.<ext>` (the path under the site's root, no leading slash). */
  file: string
  width: number
  format: ImageFormat
}

/** The plan of the picture from the source file: its size, the variants and their names. */
async function plan(source: string): Promise<{ picture: HeroPicture; variants: Variant[] }> {
  const bytes = fs.readFileSync(source)
  const size = await imageSize(bytes, `The hero picture ${source}`)
  const hash = variantHash(bytes, FORMATS)
  const base = path.basename(source, path.extname(source))
  const widths = [...new Set(HERO_WIDTHS.map((width) => Math.min(width, size.width)))]
  const variants = FORMATS.flatMap((format) =>
    widths.map((width) => ({ file: `_astro/${base}.${hash}.${width}w.${format}`, width, format })),
  )
  const srcset = (format: ImageFormat) =>
    variants
      .filter((variant) => variant.format === format)
      .map((variant) => `/${variant.file} ${variant.width}w`)
      .join(', ')
  return {
    picture: {
      ...size,
      sources: FORMATS.filter((format) => format !== 'png').map((format) => ({
        type: ENCODINGS[format].type,
        srcset: srcset(format),
      })),
      src: `/${variants.filter((variant) => variant.format === 'png').at(-1)!.file}`,
      srcset: srcset('png'),
    },
    variants,
  }
}

/** The bytes of one variant (made once, then from the cache). */
const encode = (source: string, variant: Variant, root: string) =>
  makeVariant(source, variant.width, variant.format, path.join(root, IMAGE_CACHE_DIR), path.basename(variant.file))

/**
 * The integration: `virtual:hero-picture` for the pages, the variants written into the built site when the build is
 * done, and served by the dev server.
 * @param source the hero's raster source, relative to the project root (e.g. `src/assets/hero.png`).
 */
export function heroPicture(source: string): AstroIntegration {
  let root = process.cwd()
  let planned: ReturnType<typeof plan> | undefined
  const sourcePath = () => path.resolve(root, source)
  const planOnce = () => (planned ??= plan(sourcePath()))
  let made: Promise<{ variant: Variant; data: Buffer }[]> | undefined

  const plugin: Plugin = {
    name: 'hero-picture',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_ID : undefined),
    async load(id) {
      if (id !== RESOLVED_ID) return undefined
      this.addWatchFile(sourcePath())
      return `export default ${JSON.stringify((await planOnce()).picture)}`
    },
    handleHotUpdate({ file }) {
      if (path.resolve(file) === sourcePath()) planned = undefined
    },
  }

  return {
    name: 'hero-picture',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        root = fileURLToPath(config.root)
        updateConfig({ vite: { plugins: [plugin] } })
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((request, response, next) => {
          const pathname = (request.url ?? '').split('?')[0]!
          void planOnce()
            .then(async ({ variants }) => {
              const variant = variants.find((entry) => `/${entry.file}` === pathname)
              if (!variant) return next()
              const data = await encode(sourcePath(), variant, root)
              response.setHeader('Content-Type', ENCODINGS[variant.format].type)
              response.end(data)
            })
            .catch(next)
        })
      },
      // made while the pages build, so build:done only writes them (a slow build:done hook delays the others')
      'astro:build:start': () => {
        made = planOnce().then(({ variants }) =>
          Promise.all(variants.map(async (variant) => ({ variant, data: await encode(sourcePath(), variant, root) }))),
        )
        made.catch(() => {}) // awaited (and reported) in build:done
      },
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir)
        let bytes = 0
        const files = await (made ?? Promise.reject(new Error('the build did not start')))
        for (const { variant, data } of files) {
          fs.mkdirSync(path.dirname(path.join(out, variant.file)), { recursive: true })
          fs.writeFileSync(path.join(out, variant.file), data)
          bytes += data.length
        }
        logger.info(`hero picture: ${files.length} variants, ${(bytes / 1024).toFixed(1)} KiB in all`)
      },
    },
  }
}
