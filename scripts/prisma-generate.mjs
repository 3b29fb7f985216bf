// `prisma generate` works offline once PRISMA_SCHEMA_ENGINE_BINARY names any existing file:
// generate never runs the schema engine, but the CLI tries to download it unless told where it is.
import { spawnSync } from 'node:child_process'

const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], {
  stdio: 'inherit',
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
})
process.exit(result.status ?? 1)
