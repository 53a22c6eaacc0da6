import { defineConfig, devices } from '@playwright/test'

// Browser tests run in the Chromium that scripts/test.ts found or set up (tests/support/chromium.ts: Debian's
// `chromium`, or the npm-shipped build with its own NSS libraries in CHROMIUM_LIBRARY_PATH); Playwright's own browser
// downloads cannot work on these machines. scripts/test.ts also starts the stack and the built site (E2E_BASE_URL).
const libraryPath = process.env.CHROMIUM_LIBRARY_PATH
const SCHEDULED = 'e2e/admin-scheduled-post.spec.ts'
/** Public-site specs about accounts and static pages: they read no blog or agent content. */
const ACCOUNTS = ['e2e/site-auth.spec.ts', 'e2e/account-pages.spec.ts']

export default defineConfig({
  // browser tests: tests/e2e, plus the browser half of the attack suite in tests/security
  testDir: 'tests',
  testMatch: ['e2e/**/*.spec.ts', 'security/**/*.spec.ts'],
  fullyParallel: false,
  // Five projects, one worker each. admin-scheduled-post.spec.ts ('scheduled') spends minutes waiting for its post's
  // time, so it runs beside the admin tests, the browser half of the attack suite and the public account pages
  // ('admin', 'security', 'accounts': they look for their own posts, leads and users, never at the public pages' blog
  // or agent content). The rest ('browser') compares the public site with the database, which a scheduled post going
  // live (and being deleted again) changes under it, so scripts/test.ts runs it on a stack and site of its own, side by
  // side with the other four. (Not project dependencies: with those, one failure in the first phase skipped every
  // test of the second.) `npx playwright test` alone runs all five against one site.
  workers: 2,
  projects: [
    { name: 'scheduled', testMatch: SCHEDULED, workers: 1 },
    { name: 'admin', testMatch: 'e2e/admin-*.spec.ts', testIgnore: SCHEDULED, workers: 1 },
    { name: 'security', testMatch: 'security/**/*.spec.ts', workers: 1 },
    { name: 'accounts', testMatch: ACCOUNTS, workers: 1 },
    { name: 'browser', testMatch: 'e2e/**/*.spec.ts', testIgnore: ['e2e/admin-*.spec.ts', ...ACCOUNTS], workers: 1 },
  ],
  retries: 0,
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? 'test-results',
  // The three parts of `npm test` share two cores (and CI may share them with other work): a test gets a minute and
  // an expectation 20 s before they count as failed. Nothing asserts how long anything took. (10 s was too short on
  // a day this machine ran about 1.5x slower, the whole run 1,479 s instead of 808-940 s: three admin saves, a
  // topic approval and a table load finished after 10 s, in three different files.)
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json']],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://localhost:4321',
    // A failure keeps its trace with the DOM snapshot of every step and one screenshot at the end. Not the trace's
    // screencast: encoding its frames cost a quarter of the browser's CPU (admin-a11y and site-mobile-layout: 64
    // CPU-s of Chromium with it, 47 without), and the browser tests share two cores with the rest of the run.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // the libraries are for the browser only, never for the test runner's own process
      ...(libraryPath
        ? {
            env: {
              ...process.env,
              LD_LIBRARY_PATH: [libraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
            },
          }
        : {}),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
})
