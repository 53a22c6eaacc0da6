/**
 * `npm test`: one throwaway local stack (own Postgres cluster, free ports), then the unit and integration tests
 * (vitest) and the browser tests (Playwright on Debian Chromium) against the site built from it. Prints each
 * runner's report and a final `N passed, N failed` line; exits non-zero when anything failed.
 * `npm test -- --unit-only` skips the browser tests, `--e2e-only` the vitest ones. Paths after the flags pick
 * test files: `*.test.ts` go to vitest, `*.spec.ts` to Playwright (`npm test -- tests/e2e/site-blog.spec.ts`).
 * Each run writes Playwright artefacts to its own test-results/<pid> so parallel runs do not clobber each other.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startE2ESite } from '../tests/support/e2e-site.ts';
import { rootDir, startTestStack } from '../tests/support/test-stack.ts';

const args = process.argv.slice(2);
const files = args.filter((arg) => !arg.startsWith('--'));
const vitestFiles = files.filter((file) => file.endsWith('.test.ts'));
const playwrightFiles = files.filter((file) => file.endsWith('.spec.ts'));
const unitOnly = args.includes('--unit-only') || (files.length > 0 && playwrightFiles.length === 0);
const e2eOnly = args.includes('--e2e-only') || (files.length > 0 && vitestFiles.length === 0);
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-insight-reports-'));

function run(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(rootDir, 'node_modules/.bin', command), args, {
      cwd: rootDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(file: string): Counts {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    numFailedTestSuites: number;
  };
  return {
    passed: report.numPassedTests,
    // A suite that fails to load has no failed tests but must still count as a failure.
    failed: report.numFailedTests + (report.numFailedTests === 0 ? report.numFailedTestSuites : 0),
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

function playwrightCounts(file: string): Counts {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, skipped: 0 };
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    errors?: unknown[];
  };
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected + (report.errors?.length ?? 0),
    skipped: report.stats.skipped,
  };
}

const totals: Counts = { passed: 0, failed: 0, skipped: 0 };
const add = (counts: Counts) => {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
};

let exitCode = 0;
console.log('Starting a throwaway local stack for the tests...');
const started = Date.now();
const test = await startTestStack((line) => {
  if (!line.startsWith('Applied migration')) console.log(`[stack] ${line}`);
});
console.log(`Stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${test.env.TEST_SUPABASE_URL}`);
try {
  if (!e2eOnly) {
    const vitestReport = path.join(reportDir, 'vitest.json');
    const vitestExit = await run('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`, ...vitestFiles], { ...test.env });
    const vitest = vitestCounts(vitestReport);
    if (vitestExit !== 0 && vitest.failed === 0) vitest.failed = 1;
    add(vitest);
  }

  if (!unitOnly) {
    console.log('Building the site and admin for the browser tests...');
    const site = await startE2ESite(test.env);
    try {
      const playwrightReport = path.join(reportDir, 'playwright.json');
      const playwrightExit = await run('playwright', ['test', ...playwrightFiles], {
        ...test.env,
        PLAYWRIGHT_OUTPUT_DIR: path.join(rootDir, 'test-results', String(process.pid)),
        E2E_BASE_URL: site.baseUrl,
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
      });
      const playwright = playwrightCounts(playwrightReport);
      if (playwrightExit !== 0 && playwright.failed === 0) playwright.failed = 1;
      add(playwright);
    } finally {
      await site.stop();
    }
  }
} catch (error) {
  console.error(`Test run failed: ${(error as Error).stack ?? error}`);
  totals.failed += 1;
} finally {
  await test.stop();
  fs.rmSync(reportDir, { recursive: true, force: true });
}
if (totals.failed > 0) exitCode = 1;
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(exitCode);
