/**
 * Resized image files made with sharp at build time and kept between builds: the shared part of the hero picture
 * (./hero-picture.ts) and the blog's Storage images (./post-images.ts). A file's name carries a hash of its source's
 * bytes and the encoder settings, so a page can name it before it is made and every renderer names the same file.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import sharp, { type Metadata } from 'sharp'

/** The formats made here and their encoder settings (part of each file's hash). */
export const ENCODINGS = {
  avif: { type: 'image/avif', options: { quality: 55, effort: 4 } },
  webp: { type: 'image/webp', options: { quality: 80 } },
  png: { type: 'image/png', options: { palette: true, compressionLevel: 9 } },
} as const

export type ImageFormat = keyof typeof ENCODINGS

/** Where made files are kept between builds, under the project root. */
export const IMAGE_CACHE_DIR = path.join('node_modules', '.cache', 'image-files')

/** A short hash (10 base64url characters) of a source's bytes and the encoder settings of `formats`. */
export function variantHash(bytes: Buffer, formats: readonly ImageFormat[]): string {
  return createHash('sha256')
    .update(bytes)
    .update(JSON.stringify(formats.map((format) => [format, ENCODINGS[format]])))
    .digest('base64url')
    .slice(0, 10)
}

/** The size in px of the image in `bytes`. @throws naming `what` when sharp cannot read it. */
export async function imageSize(bytes: Buffer, what: string): Promise<{ width: number; height: number }> {
  let meta: Metadata
  try {
    meta = await sharp(bytes).metadata()
  } catch (error) {
    throw new Error(`${what} is not an image sharp can read: ${(error as Error).message}`, { cause: error })
  }
  if (!meta.width || !meta.height) throw new Error(`${what} has no width or height`)
  return { width: meta.width, height: meta.height }
}

/**
 * The bytes of `input` resized to `width` px in `format`, from the cache file `name` (in `cacheDir`) when made
 * before, else made now and cached (written to a temporary name and renamed, so a reader never sees half a file).
 */
export async function makeVariant(
  input: Buffer | string,
  width: number,
  format: ImageFormat,
  cacheDir: string,
  name: string,
): Promise<Buffer> {
  const cached = path.join(cacheDir, name)
  if (fs.existsSync(cached)) return fs.readFileSync(cached)
  const data = await sharp(input).resize({ width }).toFormat(format, ENCODINGS[format].options).toBuffer()
  fs.mkdirSync(cacheDir, { recursive: true })
  fs.writeFileSync(`${cached}.${process.pid}.tmp`, data)
  fs.renameSync(`${cached}.${process.pid}.tmp`, cached)
  return data
}
