import path from 'node:path'
import { defineConfig } from 'vitest/config'

const alias = { '~': path.resolve(import.meta.dirname, 'app') }

export default defineConfig({
  resolve: { alias },
  test: {
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
