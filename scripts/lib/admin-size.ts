/**
 * What the admin app makes a browser download, read from a Vite build's manifest (`vite build --manifest`, which
 * writes `.vite/manifest.json` into the output folder): the JavaScript that admin/index.html loads up front (the
 * entry chunk and every chunk it imports statically, all of which Vite also names in `<link rel="modulepreload">`),
 * and what a first page adds through its lazy route modules. Sizes are gzip at zlib's default level, as a static
 * host compresses and as Vite's own build report prints them. Budget: up front ≤ 150 KB gzip.
 */
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

/** One entry of Vite's `.vite/manifest.json`, keyed there by source path relative to the Vite root. */
export interface ManifestChunk {
  file: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
  css?: string[]
}

export type Manifest = Record<string, ManifestChunk>

/** A set of JavaScript files and their summed size. */
export interface JsLoad {
  /** Output files, relative to the build folder (`assets/index-abc123.js`), in load order. */
  files: string[]
  /** Sum of the files' bytes as written. */
  rawBytes: number
  /** Sum of each file's gzip size (zlib default level), in bytes. */
  gzipBytes: number
}

/** Reads `<distDir>/.vite/manifest.json`. @throws Error naming the missing file (build without `--manifest`). */
export function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, '.vite/manifest.json')
  if (!fs.existsSync(file)) throw new Error(`${file} does not exist: build the admin with \`vite build --manifest\``)
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest
}

/**
 * The manifest keys a chunk needs before it runs: itself and, depth first, its static imports (never its dynamic
 * ones, which load later).
 * @throws Error when a key is not in the manifest.
 */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const seen: string[] = []
  const visit = (key: string) => {
    if (seen.includes(key)) return
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not a chunk of this build (see .vite/manifest.json)`)
    seen.push(key)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const key of keys) visit(key)
  return seen
}

/** Sizes of the JavaScript files of `keys` (manifest keys) in `distDir`. */
export function measureChunks(distDir: string, manifest: Manifest, keys: string[]): JsLoad {
  const files = keys.map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'))
  let rawBytes = 0
  let gzipBytes = 0
  for (const file of files) {
    const code = fs.readFileSync(path.join(distDir, file))
    rawBytes += code.length
    gzipBytes += gzipSync(code).length
  }
  return { files, rawBytes, gzipBytes }
}

/** The manifest key of the build's one entry (admin/index.html). @throws Error when there is none or several. */
export function entryKey(manifest: Manifest): string {
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry)
  if (entries.length !== 1) throw new Error(`expected one entry chunk in the admin build, found ${entries.length}`)
  return entries[0]!
}

/** What admin/index.html loads before any route module: the entry and its static imports. */
export function measureUpFront(distDir: string, manifest = readManifest(distDir)): JsLoad {
  return measureChunks(distDir, manifest, staticClosure(manifest, [entryKey(manifest)]))
}

/**
 * What a first visit to one page downloads in all: the up-front JavaScript plus the lazy modules that page renders
 * (`modules`: source paths relative to admin/, as manifest keys, e.g. `src/features/auth/api/auth-listener.ts`).
 */
export function measurePage(distDir: string, modules: string[], manifest = readManifest(distDir)): JsLoad {
  return measureChunks(distDir, manifest, staticClosure(manifest, [entryKey(manifest), ...modules]))
}

/**
 * Every lazily imported module (route components, dialogs, charts) with what loading it adds on top of the up-front
 * JavaScript: its own chunk and the static imports not loaded yet. Largest first.
 */
export function measureLazyModules(
  distDir: string,
  manifest = readManifest(distDir),
): { module: string; added: JsLoad }[] {
  const upFront = new Set(staticClosure(manifest, [entryKey(manifest)]))
  return Object.keys(manifest)
    .filter((key) => manifest[key]!.isDynamicEntry)
    .map((key) => ({
      module: key,
      added: measureChunks(
        distDir,
        manifest,
        staticClosure(manifest, [key]).filter((chunk) => !upFront.has(chunk)),
      ),
    }))
    .sort((a, b) => b.added.gzipBytes - a.added.gzipBytes)
}

/** Kilobytes of 1,000 bytes with one decimal, the unit of Vite's build report and of the figures. */
export function kb(bytes: number): string {
  return (bytes / 1000).toFixed(1)
}
