/**
 * The admin app's pages, read from its route files (admin/src/routes: one `createRoute` per file, `path: '<segment>'`
 * under the `_shell` layout or beside it), so the screenshots and the accessibility test cover a page as soon as its
 * route file exists. Paths are the browser's: '/admin', '/admin/blog', '/admin/login', ...
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const routesDir = fileURLToPath(new URL('../../admin/src/routes/', import.meta.url))

/** Every admin page address, the dashboard ('/admin') first, then alphabetically. */
export function adminRoutePaths(dir = routesDir): string[] {
  const paths = new Set<string>()
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue
    const source = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
    const segment = /\bpath:\s*'([^']*)'/.exec(source)?.[1]
    if (segment === undefined) continue
    const clean = segment.replace(/^\/+|\/+$/g, '')
    paths.add(clean === '' ? '/admin' : `/admin/${clean}`)
  }
  return [...paths].sort((a, b) => (a === '/admin' ? -1 : b === '/admin' ? 1 : a.localeCompare(b)))
}
