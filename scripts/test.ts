/**
 * `npm test`: everything a fresh machine needs, then every test. In order:
 * 1. a Chromium for the browser tests, found or set up first (tests/support/chromium.ts: apt as root on Debian, else
 *    the npm-shipped one), so a missing browser stops the run at once with one line saying what to install;
 * 2. the `unit` and `components` Vitest projects (tests beside the code; no stack);
 * 3. side by side, each on its own throwaway local stack (own Postgres cluster, free ports): the `integration` Vitest
 *    project; the admin browser tests, the browser half of the attack suite and the public account pages
 *    (Playwright) against a site built from their stack; the other public-site browser tests against a site built
 *    from theirs. Their output lines are marked [integration], [admin] and [site], and
 *    each part's count and time is printed at the end.
 * Prints each runner's report and a final `N passed, N failed` line; exits non-zero when anything failed.
 *
 * `--unit-only`, `--integration-only` and `--e2e-only` run one of the three (`--unit-only` needs neither a stack nor a
 * browser). Paths pick files: `*.spec.ts` go to Playwright, `tests/integration/*.test.ts` and `tests/security/*.test.ts` to the integration project,
 * other `*.test.ts` and `*.test.tsx` to the unit and components projects, and only the kinds named run
 * (`npm test -- tests/e2e/site-blog.spec.ts`).
 * Each run writes Playwright artefacts to its own test-results/<pid>-<part> so parallel runs do not clobber each other.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { ChromiumMissingError, ensureChromium, type Chromium } from '../tests/support/chromium.ts'
import { startE2ESite } from '../tests/support/e2e-site.ts'
import { rootDir, startTestStack, type TestStackEnv } from '../tests/support/test-stack.ts'

// Astro would otherwise send anonymous usage data from every build the tests make.
process.env.ASTRO_TELEMETRY_DISABLED = '1'

const args = process.argv.slice(2)
const flags = new Set(args.filter((arg) => arg.startsWith('--')))
const files = args.filter((arg) => !arg.startsWith('--'))
const known = ['--unit-only', '--integration-only', '--e2e-only']
const unknown = [...flags].filter((flag) => !known.includes(flag))
if (unknown.length > 0 || [...flags].length > 1) {
  console.error(
    `Usage: npm test -- [${known.join(' | ')}] [test files]${unknown.length ? ` (unknown: ${unknown.join(' ')})` : ''}`,
  )
  // a mistyped flag must not silently run (or skip) a different set of tests; 2 is the usual usage-error status
  process.exit(2)
}
const isIntegrationFile = (file: string) =>
  /tests\/(integration|security)\//.test(path.normalize(file).split(path.sep).join('/'))
const e2eFiles = files.filter((file) => file.endsWith('.spec.ts'))
const integrationFiles = files.filter((file) => file.endsWith('.test.ts') && isIntegrationFile(file))
const unitFiles = files.filter((file) => /\.test\.tsx?$/.test(file) && !isIntegrationFile(file))
const only = [...flags][0]
const wants = (kind: 'unit' | 'integration' | 'e2e', kindFiles: string[]) =>
  (only ? only === `--${kind}-only` : true) && (files.length === 0 || kindFiles.length > 0)
const runUnit = wants('unit', unitFiles)
const runIntegration = wants('integration', integrationFiles)
const runE2E = wants('e2e', e2eFiles)

/**
 * Runs a runner from node_modules/.bin and resolves with its exit status once its output is flushed. With `prefix`,
 * each line of its output is written with that prefix (runs side by side stay readable); without, it inherits the
 * terminal.
 */
function run(command: string, commandArgs: string[], env: Record<string, string>, prefix?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(rootDir, 'node_modules/.bin', command), commandArgs, {
      cwd: rootDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'],
    })
    if (prefix) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        readline.createInterface({ input: stream! }).on('line', (line) => out.write(`${prefix} ${line}\n`))
      }
    }
    child.once('error', reject)
    // 'close', not 'exit': the report lines are all written before the run counts as done
    child.once('close', (code) => resolve(code ?? 1))
  })
}

interface Counts {
  passed: number
  failed: number
  skipped: number
}

function vitestCounts(file: string): Counts {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, skipped: 0 }
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
    numTodoTests: number
    numFailedTestSuites: number
  }
  return {
    passed: report.numPassedTests,
    // A suite that fails to load has no failed tests but must still count as a failure.
    failed: report.numFailedTests + (report.numFailedTests === 0 ? report.numFailedTestSuites : 0),
    skipped: report.numPendingTests + report.numTodoTests,
  }
}

function playwrightCounts(file: string): Counts {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, skipped: 0 }
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number }
    errors?: unknown[]
  }
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected + (report.errors?.length ?? 0),
    skipped: report.stats.skipped,
  }
}

const totals: Counts = { passed: 0, failed: 0, skipped: 0 }
const add = (counts: Counts) => {
  totals.passed += counts.passed
  totals.failed += counts.failed
  totals.skipped += counts.skipped
}
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-reports-'))

/** Runs the Vitest `project` (the unit run adds the components project) and adds its counts to the totals. */
async function vitest(
  project: 'unit' | 'integration',
  projectFiles: string[],
  env: Record<string, string>,
  prefix?: string,
): Promise<Counts> {
  const report = path.join(reportDir, `vitest-${project}.json`)
  const exit = await run(
    'vitest',
    [
      'run',
      '--project',
      project,
      // the admin's component tests (jsdom) run with the unit tests: neither needs a stack
      ...(project === 'unit' ? ['--project', 'components'] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...projectFiles,
    ],
    env,
    prefix,
  )
  const counts = vitestCounts(report)
  if (exit !== 0 && counts.failed === 0) counts.failed = 1
  add(counts)
  return counts
}

/** Runs Playwright with `args` against `site` on `env`'s stack and adds its counts to the totals. */
async function playwright(
  name: string,
  args: string[],
  env: TestStackEnv,
  siteUrl: string,
  browser: Chromium,
  prefix?: string,
): Promise<Counts> {
  const report = path.join(reportDir, `playwright-${name}.json`)
  const exit = await run(
    'playwright',
    ['test', ...args],
    {
      ...env,
      CHROMIUM_PATH: browser.executablePath,
      ...(browser.libraryPath ? { CHROMIUM_LIBRARY_PATH: browser.libraryPath } : {}),
      PLAYWRIGHT_OUTPUT_DIR: path.join(rootDir, 'test-results', `${process.pid}-${name}`),
      E2E_BASE_URL: siteUrl,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    },
    prefix,
  )
  const counts = playwrightCounts(report)
  if (exit !== 0 && counts.failed === 0) counts.failed = 1
  add(counts)
  return counts
}

/**
 * One part of the run on its own throwaway stack: `body` gets the stack's environment and a log that marks each line
 * with the part's name when parts run side by side. A part that throws counts as one failure; the others go on.
 */
interface Part {
  name: string
  body(env: TestStackEnv, log: (line: string) => void, prefix: string | undefined): Promise<Counts>
}

async function runPart(part: Part, sideBySide: boolean): Promise<string> {
  const prefix = sideBySide ? `[${part.name}]` : undefined
  const log = (line: string) => console.log(prefix ? `${prefix} ${line}` : line)
  const started = Date.now()
  let counts: Counts = { passed: 0, failed: 0, skipped: 0 }
  try {
    log('Starting a throwaway local stack...')
    const test = await startTestStack((line) => {
      if (!line.startsWith('Applied migration')) log(`[stack] ${line}`)
    })
    log(`Stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${test.env.TEST_SUPABASE_URL}`)
    try {
      counts = await part.body(test.env, log, prefix)
    } finally {
      await test.stop()
    }
  } catch (error) {
    console.error(`${prefix ?? ''} ${part.name} failed: ${(error as Error).stack ?? error}`)
    counts = { ...counts, failed: counts.failed + 1 }
    totals.failed += 1
  }
  const seconds = Math.round((Date.now() - started) / 1000)
  return `${part.name}: ${counts.passed} passed, ${counts.failed} failed in ${seconds} s`
}

/** A part that builds the site against its stack, then runs Playwright with `args` against it. */
function browserPart(name: string, args: string[], browser: Chromium): Part {
  return {
    name,
    async body(env, log, prefix) {
      log('Building the site and admin for the browser tests...')
      const site = await startE2ESite(env, log)
      try {
        return await playwright(name, args, env, site.baseUrl, browser, prefix)
      } finally {
        await site.stop()
      }
    },
  }
}

let chromium: Chromium | null = null
if (runE2E) {
  try {
    chromium = await ensureChromium((line) => console.log(line))
  } catch (error) {
    if (!(error instanceof ChromiumMissingError)) throw error
    console.error(error.message)
    // nothing has started yet; the one line above says what to install
    process.exit(1)
  }
}

// Every part that needs a stack gets its own (own Postgres cluster, functions, mailbox, site builder), so the parts
// run side by side without seeing each other's data: the integration files; the admin tests with the scheduled-post
// test (it waits minutes for its post's time, and its post going live changes the public site); the tests that compare
// the public site with the database. Chosen files run as at most one integration and one browser part.
const parts: Part[] = []
if (runIntegration) {
  parts.push({
    name: 'integration',
    body: (env, _log, prefix) => vitest('integration', integrationFiles, { ...env }, prefix),
  })
}
if (runE2E && chromium) {
  if (e2eFiles.length > 0) parts.push(browserPart('browser tests', e2eFiles, chromium))
  else {
    parts.push(
      browserPart(
        'admin',
        ['--project', 'scheduled', '--project', 'admin', '--project', 'security', '--project', 'accounts'],
        chromium,
      ),
    )
    parts.push(browserPart('site', ['--project', 'browser'], chromium))
  }
}
const summaries: string[] = []
try {
  if (runUnit) await vitest('unit', unitFiles, {})
  summaries.push(...(await Promise.all(parts.map((part) => runPart(part, parts.length > 1)))))
} catch (error) {
  console.error(`Test run failed: ${(error as Error).stack ?? error}`)
  totals.failed += 1
} finally {
  fs.rmSync(reportDir, { recursive: true, force: true })
}
for (const summary of summaries) console.log(summary)
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`)
// the status CI reads: non-zero when any runner failed (the summary line above has the counts); the explicit exit
// also ends handles a runner may have left open
process.exit(totals.failed > 0 ? 1 : 0)
