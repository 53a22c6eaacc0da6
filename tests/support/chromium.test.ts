import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChromiumMissingError, ensureChromium } from './chromium.ts'

const MISSING =
  "No Chromium for the browser tests: install Debian's (`sudo apt-get install -y chromium`) or point CHROMIUM_PATH at a Chromium or Chrome binary (`npm test -- --unit-only` needs none)."

describe('ensureChromium', () => {
  const saved = { ...process.env }
  let dir = ''
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-test-'))
  })
  afterEach(() => {
    for (const key of ['CHROMIUM_PATH', 'CHROMIUM_SETUP', 'CHROMIUM_APT_GET']) {
      if (saved[key] === undefined) delete process.env[key]
      else process.env[key] = saved[key]
    }
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('uses CHROMIUM_PATH when it is an executable', async () => {
    const binary = path.join(dir, 'chrome')
    fs.writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 })
    process.env.CHROMIUM_PATH = binary
    expect(await ensureChromium(() => {})).toEqual({ executablePath: binary, libraryPath: null, source: 'env' })
  })

  it('stops with one line naming what to install when it may not set one up', async () => {
    process.env.CHROMIUM_PATH = path.join(dir, 'missing')
    process.env.CHROMIUM_SETUP = 'none'
    const lines: string[] = []
    await expect(ensureChromium((line) => lines.push(line))).rejects.toThrow(new ChromiumMissingError(MISSING))
    expect(lines).toEqual([
      `CHROMIUM_PATH=${path.join(dir, 'missing')} is not an executable; setting up a Chromium instead.`,
    ])
  })

  it('names the problem when apt-get fails, without trying the npm build under CHROMIUM_SETUP=apt', async () => {
    const aptGet = path.join(dir, 'apt-get')
    fs.writeFileSync(aptGet, `#!/bin/sh\necho "E: stand-in apt-get $*" >&2\nexit 100\n`, { mode: 0o755 })
    process.env.CHROMIUM_PATH = path.join(dir, 'missing')
    process.env.CHROMIUM_SETUP = 'apt'
    process.env.CHROMIUM_APT_GET = aptGet
    await expect(ensureChromium(() => {})).rejects.toThrow(MISSING)
  })

  it('refuses an unknown CHROMIUM_SETUP', async () => {
    process.env.CHROMIUM_PATH = path.join(dir, 'missing')
    process.env.CHROMIUM_SETUP = 'brew'
    await expect(ensureChromium(() => {})).rejects.toThrow('CHROMIUM_SETUP must be auto, apt, npm or none, not "brew".')
  })
})
