/**
 * One build, the way a static host runs it: the product's build command in the checkout, writing into the publish
 * directory; its output captured for the log tail. Whatever the command keeps between builds (Astro's cache
 * directory) is the host's build cache: this runner never touches it.
 */
import { spawn } from 'node:child_process'

/** The product's build command (what a host's "build command" setting holds) and where it writes the site. */
export interface BuildCommand {
  command: string
  args: string[]
  cwd: string
  /** Added to the environment (the host's build variables). */
  env: Record<string, string>
  /** The directory the command writes the site into (the host's "publish directory"). */
  publishDir: string
}

/**
 * Runs the command; `output` receives its stdout and stderr chunks. Rejects when it exits non-zero, is killed, or
 * `signal` aborts it.
 */
export function runBuildCommand(
  build: BuildCommand,
  output: (chunk: string) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(build.command, build.args, {
      cwd: build.cwd,
      signal,
      env: { ...process.env, ...build.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.setEncoding('utf8').on('data', output)
    child.stderr.setEncoding('utf8').on('data', output)
    child.once('error', reject)
    child.once('exit', (code, killedBy) =>
      code === 0
        ? resolve()
        : reject(new Error(`The build command exited with ${killedBy ? `signal ${killedBy}` : `code ${code}`}`)),
    )
  })
}
