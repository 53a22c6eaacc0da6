/**
 * `npm test`: everything a fresh machine needs, then every test. In order:
 * 1. a Chromium for the browser tests, found or set up first (tests/support/chromium.ts: apt as root on Debian, else
 *    the npm-shipped one), so a missing browser stops the run at once with one line saying what to install;
 * 2. the `unit` and `components` Vitest projects (tests beside the code; no stack);
 * 3. one throwaway local stack (own Postgres cluster, free ports), then the `integration` Vitest project against it;
 * 4. the browser tests (Playwright) against the site built from that stack.
 * Prints each runner's report and a final `N passed, N failed` line; exits non-zero when anything failed.
 *
 * `--unit-only`, `--integration-only` and `--e2e-only` run one of the three (`--unit-only` needs neither a stack nor a
 * browser). Paths pick files: `*.spec.ts` go to Playwright, `tests/integration/*.test.ts` and `tests/security/*.test.ts` to the integration project,
 * other `*.test.ts` and `*.test.tsx` to the unit and components projects, and only the kinds named run
 * (`npm test -- tests/e2e/site-blog.spec.ts`).
 * Each run writes Playwright artefacts to its own test-results/<pid> so parallel runs do not clobber each other.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ChromiumMissingError, ensureChromium, type Chromium } from '../tests/support/chromium.ts'
import { startE2ESite } from '../tests/support/e2e-site.ts'
import { rootDir, startTestStack } from '../tests/support/test-stack.ts'

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

function run(command: string, commandArgs: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(rootDir, 'node_modules/.bin', command), commandArgs, {
      cwd: rootDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve(code ?? 1))
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

async function vitest(
  project: 'unit' | 'integration',
  projectFiles: string[],
  env: Record<string, string>,
): Promise<void> {
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
  )
  const counts = vitestCounts(report)
  if (exit !== 0 && counts.failed === 0) counts.failed = 1
  add(counts)
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

try {
  if (runUnit) await vitest('unit', unitFiles, {})
  if (runIntegration || runE2E) {
    console.log('Starting a throwaway local stack for the tests...')
    const started = Date.now()
    const test = await startTestStack((line) => {
      if (!line.startsWith('Applied migration')) console.log(`[stack] ${line}`)
    })
    console.log(`Stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${test.env.TEST_SUPABASE_URL}`)
    try {
      if (runIntegration) await vitest('integration', integrationFiles, { ...test.env })
      if (runE2E && chromium) {
        console.log('Building the site and admin for the browser tests...')
        const site = await startE2ESite(test.env)
        try {
          // The whole suite runs in two phases (playwright.config.ts says why): the scheduled-post test beside the
          // admin tests, then the tests that compare the public site with the database. Two invocations rather than
          // project dependencies, so that a failure in the first phase does not skip every test of the second.
          // Chosen files run in one invocation.
          const phases =
            e2eFiles.length > 0
              ? [e2eFiles]
              : [
                  ['--project', 'scheduled', '--project', 'admin'],
                  ['--project', 'browser'],
                ]
          for (const [index, args] of phases.entries()) {
            const playwrightReport = path.join(reportDir, `playwright-${index}.json`)
            const playwrightExit = await run('playwright', ['test', ...args], {
              ...test.env,
              CHROMIUM_PATH: chromium.executablePath,
              ...(chromium.libraryPath ? { CHROMIUM_LIBRARY_PATH: chromium.libraryPath } : {}),
              PLAYWRIGHT_OUTPUT_DIR: path.join(rootDir, 'test-results', `${process.pid}-${index}`),
              E2E_BASE_URL: site.baseUrl,
              PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
            })
            const playwright = playwrightCounts(playwrightReport)
            if (playwrightExit !== 0 && playwright.failed === 0) playwright.failed = 1
            add(playwright)
          }
        } finally {
          await site.stop()
        }
      }
    } finally {
      await test.stop()
    }
  }
} catch (error) {
  console.error(`Test run failed: ${(error as Error).stack ?? error}`)
  totals.failed += 1
} finally {
  fs.rmSync(reportDir, { recursive: true, force: true })
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`)
// the status CI reads: non-zero when any runner failed (the summary line above has the counts); the explicit exit
// also ends handles a runner may have left open
process.exit(totals.failed > 0 ? 1 : 0)
