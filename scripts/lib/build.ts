/**
 * Builds the static site (Astro, into dist/site) and the admin app (Vite, into dist/admin) when their sources
 * changed since the last build. A build runs in a child process with the public build variables; its own output
 * (Astro's and Vite's progress lines) is shown as it goes.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { rootDir } from './env.ts'

export interface BuildTarget {
  name: 'site' | 'admin'
  outDir: string
  command: string[]
  sources: string[]
}

export const siteTarget: BuildTarget = {
  name: 'site',
  outDir: path.join(rootDir, 'dist/site'),
  command: ['astro', 'build'],
  sources: ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'],
}

export const adminTarget: BuildTarget = {
  name: 'admin',
  outDir: path.join(rootDir, 'dist/admin'),
  command: ['vite', 'build', '--config', 'admin/vite.config.ts'],
  sources: ['admin', 'src/lib', 'package-lock.json'],
}

/** sha256 over the paths and contents of every file under the target's sources, plus the build variables. */
export function sourceHash(target: BuildTarget, env: Record<string, string>): string {
  const hash = createHash('sha256')
  const visit = (relative: string) => {
    const absolute = path.join(rootDir, relative)
    if (!fs.existsSync(absolute)) return
    const stat = fs.statSync(absolute)
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(absolute).sort()) {
        if (entry === 'node_modules' || entry.startsWith('.')) continue
        visit(path.join(relative, entry))
      }
    } else {
      hash.update(relative).update('\0').update(fs.readFileSync(absolute))
    }
  }
  target.sources.forEach(visit)
  hash.update(JSON.stringify(env))
  return hash.digest('hex')
}

/** Runs `npx <command>` from the repo root with `env` added; rejects with the exit code on failure. */
export function run(command: string[], env: Record<string, string>, extra: { outDir?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(rootDir, 'node_modules/.bin', command[0]!), command.slice(1), {
      cwd: rootDir,
      env: {
        ...process.env,
        ...env,
        ...(extra.outDir ? { ASTRO_OUT_DIR: extra.outDir, ADMIN_OUT_DIR: extra.outDir } : {}),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command.join(' ')} exited with code ${code}`)),
    )
  })
}

/**
 * Builds `target` unless its output exists and was built from the same sources (force skips the check).
 * @returns whether a build ran.
 */
export async function buildIfChanged(
  target: BuildTarget,
  env: Record<string, string>,
  force = false,
): Promise<boolean> {
  const stamp = path.join(target.outDir, '.source-hash')
  const hash = sourceHash(target, env)
  if (!force && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return false
  console.log(`Building the ${target.name}...`)
  const started = Date.now()
  await run(target.command, env, { outDir: target.outDir })
  fs.writeFileSync(stamp, hash)
  console.log(`Built the ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
  return true
}
