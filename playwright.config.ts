import { defineConfig, devices } from '@playwright/test'
import { E2E_BUSINESS_ENV } from './tests/fixtures/business-details'
import { E2E_METRICS_TOKEN } from './tests/fixtures/metrics-token'
import { e2ePortSearchStart, firstFreePortPair } from './tests/support/ports'

// Chosen once, by the runner: its workers inherit the variable and load this file with it set.
process.env.E2E_PORT ??= String(firstFreePortPair(e2ePortSearchStart(process.cwd())))
const PORT = Number(process.env.E2E_PORT)

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  // Generous for a loaded 2-core CI machine: axe audits take seconds, and the longest journeys (cart,
  // payment, admin) took half a minute there. Specs start signed in through tests/e2e/fixtures.ts;
  // the two that sign in through the SMS outbox and the job queue allow themselves longer.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Running as root, on a closed network: no sandbox, and no background calls to Google's hosts.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'js', testIgnore: /api\..*\.spec\.ts/, use: { ...devices['Desktop Chrome'], channel: undefined } },
    {
      name: 'no-js',
      testIgnore: /api\..*\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], channel: undefined, javaScriptEnabled: false },
      // Tests of what only the pages' scripts do are tagged @js-only.
      grepInvert: /@js-only/,
    },
    // The JSON API needs no browser: its contract tests run once.
    { name: 'api', testMatch: /api\..*\.spec\.ts/ },
  ],
  webServer: {
    command: 'node --import tsx tests/e2e/serve.ts',
    url: `http://localhost:${PORT}/healthz`,
    env: { PORT: String(PORT), METRICS_TOKEN: E2E_METRICS_TOKEN, ...E2E_BUSINESS_ENV },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
})
