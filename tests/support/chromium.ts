/**
 * A Chromium for the browser tests (and the Lighthouse bench), found or set up before anything else runs, so a fresh
 * machine needs nothing but `npm install && npm test`. In order:
 *
 * 1. `CHROMIUM_PATH` when it is set: that binary and no other (an override never silently falls back);
 * 2. an installed Chromium or Chrome (`/usr/bin/chromium`, `chromium-browser`, `google-chrome`, ...);
 * 3. as root on Debian or Ubuntu: Debian's `chromium` through `apt-get install -y chromium`, printing its progress;
 * 4. otherwise the Chromium shipped in the npm package `@sparticuz/chromium` (a self-contained headless build),
 *    installed into `.data/chromium/` and unpacked there on first use;
 * 5. otherwise `ChromiumMissingError` with one line saying exactly what to install.
 *
 * `CHROMIUM_SETUP` picks how step 3-4 may set one up: `auto` (default), `apt`, `npm` or `none` (only look).
 * `CHROMIUM_APT_GET` names the apt-get command (default `apt-get`); tests point it at a stand-in to exercise step 3
 * without touching the machine's packages.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const rootDir = path.resolve(import.meta.dirname, '../..')

/** Binaries of a Chromium or Chrome that a distribution or Google's package installs. */
export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
]

/** The @sparticuz/chromium release whose Chromium matches our Playwright's protocol (Chromium 147). */
export const NPM_CHROMIUM = '@sparticuz/chromium@147.0.0'

/** What the browser tests launch: the binary and, for the npm build, the libraries it brings (LD_LIBRARY_PATH). */
export interface Chromium {
  executablePath: string
  /** Extra library directory for the browser process only (the npm build's NSS), or null. */
  libraryPath: string | null
  /** How it was found: `env`, `system`, `apt` or `npm`. */
  source: 'env' | 'system' | 'apt' | 'npm'
}

/** No Chromium and no way to set one up here; the message is the one line to show. */
export class ChromiumMissingError extends Error {
  override name = 'ChromiumMissingError'
}

const MISSING =
  "No Chromium for the browser tests: install Debian's (`sudo apt-get install -y chromium`) or point CHROMIUM_PATH at a Chromium or Chrome binary (`npm test -- --unit-only` needs none)."

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

/** Runs a command, printing each output line with a prefix; resolves with its exit code (127 when missing). */
function runWithProgress(
  command: string,
  args: string[],
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let pending = ''
    const onData = (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split(/\r?\n|\r/)
      pending = lines.pop() ?? ''
      for (const line of lines) if (line.trim()) log(line.trim())
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('error', () => resolve(127))
    child.once('close', (code) => {
      if (pending.trim()) log(pending.trim())
      resolve(code ?? 1)
    })
  })
}

function isDebianLike(): boolean {
  try {
    const release = fs.readFileSync('/etc/os-release', 'utf8')
    return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(release)
  } catch {
    return false
  }
}

async function setUpWithApt(log: (line: string) => void): Promise<boolean> {
  const aptGet = process.env.CHROMIUM_APT_GET ?? 'apt-get'
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  log('Setting up Chromium for the browser tests: apt-get install -y chromium (once)...')
  const prefixed = (line: string) => log(`  ${line}`)
  if ((await runWithProgress(aptGet, ['update', '-q'], prefixed, env)) !== 0) return false
  return (await runWithProgress(aptGet, ['install', '-y', '-q', 'chromium'], prefixed, env)) === 0
}

/** Installs @sparticuz/chromium into .data/chromium and unpacks its browser and NSS libraries there. */
async function setUpFromNpm(log: (line: string) => void): Promise<Chromium | null> {
  const home = path.join(rootDir, '.data/chromium')
  const unpacked = path.join(home, 'unpacked')
  const packageDir = path.join(home, 'node_modules/@sparticuz/chromium')
  const binary = path.join(unpacked, 'chromium')
  if (!isExecutable(binary)) {
    fs.mkdirSync(home, { recursive: true })
    if (!fs.existsSync(packageDir)) {
      log(`Setting up Chromium for the browser tests: npm install ${NPM_CHROMIUM} into .data/chromium (once)...`)
      const npm = path.join(rootDir, 'node_modules/.bin/npm')
      const code = await runWithProgress(
        fs.existsSync(npm) ? npm : 'npm',
        ['install', '--prefix', home, '--no-save', '--no-audit', '--no-fund', NPM_CHROMIUM],
        (line) => log(`  ${line}`),
      )
      if (code !== 0) return null
    }
    log('Unpacking Chromium into .data/chromium/unpacked...')
    fs.mkdirSync(unpacked, { recursive: true })
    const bin = path.join(packageDir, 'bin')
    // the package unpacks into os.tmpdir(); point that at our folder while it does
    const previous = process.env.TMPDIR
    process.env.TMPDIR = unpacked
    try {
      const { inflate } = (await import(pathToFileURL(path.join(packageDir, 'build/esm/lambdafs.js')).href)) as {
        inflate(file: string): Promise<string>
      }
      for (const archive of ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br'])
        await inflate(path.join(bin, archive))
    } finally {
      if (previous === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = previous
    }
    if (!isExecutable(binary)) return null
  }
  return { executablePath: binary, libraryPath: path.join(unpacked, 'al2023/lib'), source: 'npm' }
}

/**
 * Finds or sets up a Chromium (see the module comment for the order).
 * @param log receives progress lines (setup only; finding an installed one is silent)
 * @throws ChromiumMissingError when none is found and none can be set up here
 */
export async function ensureChromium(log: (line: string) => void = console.log): Promise<Chromium> {
  const override = process.env.CHROMIUM_PATH
  if (override && isExecutable(override)) return { executablePath: override, libraryPath: null, source: 'env' }
  if (!override) {
    const installed = SYSTEM_CHROMIUMS.find(isExecutable)
    if (installed) return { executablePath: installed, libraryPath: null, source: 'system' }
  } else {
    log(`CHROMIUM_PATH=${override} is not an executable; setting up a Chromium instead.`)
  }
  const setup = process.env.CHROMIUM_SETUP ?? 'auto'
  if (!['auto', 'apt', 'npm', 'none'].includes(setup))
    throw new ChromiumMissingError(`CHROMIUM_SETUP must be auto, apt, npm or none, not "${setup}".`)
  const asRoot = process.getuid?.() === 0
  if ((setup === 'apt' || setup === 'auto') && asRoot && isDebianLike()) {
    if (await setUpWithApt(log)) {
      const installed = SYSTEM_CHROMIUMS.find(isExecutable)
      if (installed) {
        log(`Chromium ready: ${installed}`)
        return { executablePath: installed, libraryPath: null, source: 'apt' }
      }
    }
    log('apt-get could not install chromium.')
  }
  if (setup === 'npm' || setup === 'auto') {
    const shipped = await setUpFromNpm(log).catch((error: Error) => {
      log(`The npm Chromium could not be set up: ${error.message}`)
      return null
    })
    if (shipped) {
      log(`Chromium ready: ${path.relative(rootDir, shipped.executablePath)}`)
      return shipped
    }
  }
  throw new ChromiumMissingError(MISSING)
}
