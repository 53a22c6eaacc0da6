/**
 * The filesystem backend of the stand-in's Storage API (/storage/v1): @supabase/lite 0.10 serves the storage-api
 * routes, checks bucket limits and runs the storage.objects RLS policies on our Postgres, but ships its filesystem
 * adapter only inside its CLI bundle, so this is the same small adapter (objects at <basePath>/<bucket>/<name>).
 * Hosted Supabase keeps the bytes in S3 instead; nothing above this layer differs.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

/** File metadata as lite's storage service reads it (sizes in bytes). */
interface ObjectMetadata {
  cacheControl: string
  contentLength: number
  size: number
  mimetype: string
  lastModified: Date
  eTag: string
}

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
}

/** The storage adapter lite calls (getObject, uploadObject, deleteObject(s), copyObject, headObject). */
export class FilesystemStorage {
  readonly basePath: string

  constructor(basePath: string) {
    this.basePath = path.resolve(basePath)
  }

  /** Resolves an object's file, refusing names that would leave the bucket's folder. */
  private filePath(bucket: string, name: string): string {
    const file = path.resolve(this.basePath, bucket, name)
    if (!file.startsWith(path.join(this.basePath, bucket) + path.sep)) throw new Error(`Invalid object name: ${name}`)
    return file
  }

  private metadata(stat: { size: number; mtime: Date }, eTag: string, name: string): ObjectMetadata {
    return {
      cacheControl: 'no-cache',
      contentLength: stat.size,
      size: stat.size,
      mimetype: MIME_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
      lastModified: stat.mtime,
      eTag,
    }
  }

  async getObject(bucket: string, name: string, _version?: string, headers?: { ifNoneMatch?: string; range?: string }) {
    const file = this.filePath(bucket, name)
    const stat = await fs.stat(file)
    const eTag = `"${createHash('md5').update(`${file}:${stat.mtimeMs}`).digest('hex')}"`
    if (headers?.ifNoneMatch === eTag) return { httpStatusCode: 304, metadata: this.metadata(stat, eTag, name) }
    const range = headers?.range ? /^bytes=(\d+)-(\d*)$/.exec(headers.range) : null
    const handle = await fs.open(file, 'r')
    if (range) {
      const start = Number(range[1])
      const end = range[2] ? Number(range[2]) : stat.size - 1
      const bytes = Buffer.alloc(end - start + 1)
      await handle.read(bytes, 0, bytes.length, start)
      await handle.close()
      return {
        httpStatusCode: 206,
        metadata: {
          ...this.metadata(stat, eTag, name),
          contentLength: bytes.length,
          contentRange: `bytes ${start}-${end}/${stat.size}`,
        },
        body: new Blob([bytes]).stream(),
      }
    }
    const bytes = await handle.readFile()
    await handle.close()
    return { httpStatusCode: 200, metadata: this.metadata(stat, eTag, name), body: new Blob([bytes]).stream() }
  }

  async uploadObject(
    bucket: string,
    name: string,
    _version: string | undefined,
    body: Uint8Array | ReadableStream<Uint8Array>,
    mimetype: string,
    cacheControl: string,
  ) {
    const file = this.filePath(bucket, name)
    await fs.mkdir(path.dirname(file), { recursive: true })
    const bytes = body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer())
    await fs.writeFile(file, bytes)
    const stat = await fs.stat(file)
    const eTag = `"${createHash('md5').update(bytes).digest('hex')}"`
    return { cacheControl, contentLength: stat.size, size: stat.size, mimetype, lastModified: stat.mtime, eTag }
  }

  async deleteObject(bucket: string, name: string): Promise<void> {
    await fs.unlink(this.filePath(bucket, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }

  async deleteObjects(bucket: string, names: string[]): Promise<void> {
    for (const name of names) await this.deleteObject(bucket, name)
  }

  async copyObject(bucket: string, name: string, _version: string | undefined, toBucket: string, toName: string) {
    const to = this.filePath(toBucket, toName)
    await fs.mkdir(path.dirname(to), { recursive: true })
    await fs.copyFile(this.filePath(bucket, name), to)
    const stat = await fs.stat(to)
    return {
      httpStatusCode: 200,
      eTag: `"${createHash('md5')
        .update(await fs.readFile(to))
        .digest('hex')}"`,
      lastModified: stat.mtime,
    }
  }

  async headObject(bucket: string, name: string) {
    const file = this.filePath(bucket, name)
    const stat = await fs.stat(file)
    return this.metadata(stat, `"${createHash('md5').update(`${file}:${stat.mtimeMs}`).digest('hex')}"`, name)
  }

  async privateAssetUrl(bucket: string, name: string): Promise<string> {
    return `file://${this.filePath(bucket, name)}`
  }
}
