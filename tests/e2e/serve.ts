// Playwright's web server: a fresh database on the test server, then `npm start`'s scripts/start.mjs
// against it (which builds when needed, then migrates and seeds it in demo mode). The database is dropped again on exit.
import { spawn } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { e2eDatabaseUrlFile } from './database'
import {
  createDatabase,
  dropDatabase,
  dropDatabasesOfDeadRuns,
  provideTestServer,
  uniqueDatabaseName,
} from '../support/test-database'
import { freePorts } from '../support/ports'

const server = await provideTestServer({ dataDir: '.data/postgres-e2e', port: (await freePorts(1))[0]! })
await dropDatabasesOfDeadRuns(server.url)
const databaseName = uniqueDatabaseName('e2e')
const databaseUrl = await createDatabase(server.url, databaseName)
// For specs that set up what no page can (e.g. a manual claim before /pay exists): tests/e2e/database.ts.
const urlFile = e2eDatabaseUrlFile(process.env.PORT)
await mkdir('.data', { recursive: true })
await writeFile(urlFile, databaseUrl)

const store = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: databaseUrl, DEMO_MODE: '1' },
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => store.kill(signal))

store.on('exit', async (code) => {
  // An embedded server shares our process group, so it may already be stopping; the next run drops it then.
  await rm(urlFile, { force: true })
  await dropDatabase(server.url, databaseName).catch(() =>
    console.log(`Left database ${databaseName} for the next run to drop`),
  )
  await server.stop()
  process.exit(code ?? 0)
})
