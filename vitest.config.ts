import path from 'node:path'
import { defineConfig } from 'vitest/config'
import { isDatabaseShuttingDown } from './app/domain/error-message'

const alias = { '~': path.resolve(import.meta.dirname, 'app') }

export default defineConfig({
  resolve: { alias },
  test: {
    // A query cut off by a test ending the database's connections (sms-jobs, database-killed-under-load)
    // can reject inside pg-boss where nobody awaits it: the store logs such a rejection and goes on
    // (scripts/graceful-shutdown.ts), so it is no test failure. Any other unhandled error still fails the run.
    onUnhandledError: (error) => !isDatabaseShuttingDown(error),
    projects: [
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] } },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.{ts,tsx}'],
          globalSetup: ['tests/support/global-setup.ts'],
          setupFiles: ['tests/support/database-per-file.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
