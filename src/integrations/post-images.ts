/**
 * The blog's Storage images as WebP at several widths, made with sharp while the static build renders the articles
 * (src/lib/post-images.ts decides which images and widths) and by the dev server. Each file is named by the source's
 * bytes (./image-files.ts), kept in the image cache between builds, and every file made so far is written into the
 * built site's `/_astro/` when the build is done: an article the incremental build reuses from its cache names files
 * made by an earlier build. Astro's own image service cannot do this under the Cloudflare adapter: its build-time
 * service copies the source under each variant's name.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'
import { POST_IMAGE_MAKER, type PostImageMaker } from '../lib/post-image-maker.ts'
import { IMAGE_CACHE_DIR, imageSize, makeVariant, variantHash } from './image-files.ts'

/** The longest a Storage image may take to download at build time (ms). */
const DOWNLOAD_TIMEOUT_MS = 30_000

/** A file-name stem from the image's address: its last path segment without the extension, in safe characters. */
function stem(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '')
  const name = last
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
  return name || 'image'
}

/** Where made post images are kept between builds, under the project root `root`. */
export const postImageCacheDir = (root: string) => path.join(root, IMAGE_CACHE_DIR, 'posts')

/**
 * The maker of post images, keeping its files in `cacheDir`: the static build's (installed by the integration) and
 * the local builder's patch's (scripts/lib/site-patch.ts), which makes an article's images before the worker renders it.
 */
export function postImageMakerIn(cacheDir: string): PostImageMaker {
  return async (url, widthsFor) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) })
    if (!response.ok) throw new Error(`downloading it answered ${response.status}`)
    const bytes = Buffer.from(await response.arrayBuffer())
    const size = await imageSize(bytes, url)
    const hash = variantHash(bytes, ['webp'])
    const files = []
    for (const width of widthsFor(size.width)) {
      const name = `${stem(url)}.${hash}.${width}w.webp`
      await makeVariant(bytes, width, 'webp', cacheDir, name)
      files.push({ path: `/_astro/${name}`, width })
    }
    return { ...size, files }
  }
}

/** The integration (see the module comment). */
export function postImages(): AstroIntegration {
  let cacheDir = ''
  const install = () => {
    ;(globalThis as { [POST_IMAGE_MAKER]?: PostImageMaker })[POST_IMAGE_MAKER] = postImageMakerIn(cacheDir)
  }
  return {
    name: 'post-images',
    hooks: {
      'astro:config:setup': ({ config }) => {
        cacheDir = postImageCacheDir(fileURLToPath(config.root))
      },
      'astro:build:start': install,
      'astro:server:setup': ({ server }) => {
        install()
        server.middlewares.use((request, response, next) => {
          const name = /^\/_astro\/([^/?]+\.webp)(?:\?|$)/.exec(request.url ?? '')?.[1]
          const file = name ? path.join(cacheDir, name) : ''
          if (!file || !fs.existsSync(file)) return next()
          response.setHeader('Content-Type', 'image/webp')
          response.end(fs.readFileSync(file))
        })
      },
      'astro:build:done': ({ dir, logger }) => {
        delete (globalThis as { [POST_IMAGE_MAKER]?: PostImageMaker })[POST_IMAGE_MAKER]
        if (!fs.existsSync(cacheDir)) return
        const out = path.join(fileURLToPath(dir), '_astro')
        fs.mkdirSync(out, { recursive: true })
        const files = fs.readdirSync(cacheDir).filter((name) => name.endsWith('.webp'))
        for (const name of files) fs.copyFileSync(path.join(cacheDir, name), path.join(out, name))
        logger.info(`post images: ${files.length} files`)
      },
    },
  }
}
