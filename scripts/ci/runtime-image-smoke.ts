// The Dockerfile's runtime stage without Docker (CI machines have no engine): the committed sources,
// the build and the production dependencies only, started with `npm start` and DEMO_MODE=0 on a fresh
// database, as a deployment would. Proves the image's start-up needs nothing that stage leaves out.
// Run after a build, from the repository root: `node --import tsx scripts/ci/runtime-image-smoke.ts`.
import { execSync, spawn } from 'node:child_process'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { E2E_BUSINESS_ENV } from '../../tests/fixtures/business-details'
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../../tests/support/test-database'

const PORT = 3301
const START_TIMEOUT_MS = 120_000
const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL
if (!serverUrl) throw new Error('Set TEST_DATABASE_URL to a PostgreSQL server for the smoke test')

const image = await mkdtemp(path.join(tmpdir(), 'runtime-image-'))
const databaseName = uniqueDatabaseName('runtime')
const fail = (reason: string): never => {
  throw new Error(`Runtime image smoke test: ${reason}`)
}

try {
  execSync(`git archive HEAD | tar -x -C ${image}`, { stdio: 'inherit' })
  for (const built of ['node_modules', 'build', 'app/generated'])
    await cp(built, path.join(image, built), { recursive: true, verbatimSymlinks: true })
  execSync('npm prune --omit=dev --no-audit --no-fund', { cwd: image, stdio: 'inherit' })

  const databaseUrl = await createDatabase(serverUrl, databaseName)
  const store = spawn('npm', ['start'], {
    cwd: image,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DEMO_MODE: '0',
      PORT: String(PORT),
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: 'runtime-image-smoke-session-secret-0123456789',
      RAZORPAY_KEY_ID: 'rzp_test_smoke',
      RAZORPAY_KEY_SECRET: 'smoke-key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'smoke-webhook-secret',
      MSG91_AUTH_KEY: 'smoke-auth-key',
      MSG91_TEMPLATE_ID: 'smoke-template',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Research Store <no-reply@example.in>',
      KYC_PROVIDER: 'http',
      KYC_KRA_URL: 'http://127.0.0.1:9',
      KYC_KRA_API_KEY: 'smoke-kra-key',
      // Two different 32-byte keys (openssl rand -base64 32), only for this throwaway database.
      PAN_ENCRYPTION_KEY: 'ZR0lCwMdOQYJVkn3hgEu9oyvpbVdlQxC3lqKDmwVxa0=',
      PAN_LOOKUP_KEY: 'r3mF8DvZ2KkN1w9qYcTpXb6uJhLsGeAoI4nWdR0tVyE=',
      RESEARCH_SIGNING_KEY: 'q1XbV0yN7cJ2kP9sW4tZ8mR6hL3fD5gA0uE1iO7wYxQ=',
      ...E2E_BUSINESS_ENV,
    },
  })
  let log = ''
  store.stdout.on('data', (chunk) => (log += chunk))
  store.stderr.on('data', (chunk) => (log += chunk))
  // After the output is complete; npm itself ends by the signal it forwarded once the store has exited.
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    store.on('close', (code, signal) => resolve({ code, signal })),
  )

  let requestId = ''
  try {
    const deadline = Date.now() + START_TIMEOUT_MS
    let healthy = false
    while (!healthy) {
      if (store.exitCode !== null) fail(`npm start exited with ${store.exitCode} before serving:\n${log}`)
      if (Date.now() > deadline) fail(`no healthy answer within ${START_TIMEOUT_MS / 1000} s:\n${log}`)
      healthy = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    // With personal data in the query, which the log must not keep (docs/operations.md, "Logs").
    const services = await fetch(`http://127.0.0.1:${PORT}/services?phone=%2B919876543210&q=ABCPE1234F`)
    if (services.status !== 200) fail(`/services answered ${services.status}`)
    requestId = services.headers.get('x-request-id') ?? fail('/services answered without an X-Request-Id')
    if (!(await services.text()).includes(E2E_BUSINESS_ENV.BUSINESS_NAME))
      fail('/services does not show the configured business name')
    const outbox = await fetch(`http://127.0.0.1:${PORT}/dev/outbox`)
    if (outbox.status !== 404) fail(`/dev/outbox answered ${outbox.status} with DEMO_MODE=0`)
    if (!log.includes('Production mode')) fail(`the log does not say production mode:\n${log}`)
  } finally {
    store.kill('SIGTERM')
    const { code, signal } = await closed
    if (code !== 0 && signal !== 'SIGTERM') fail(`npm start ended with ${code ?? signal} after SIGTERM:\n${log}`)
    if (!log.includes('SIGTERM: shutting down') || /Shutdown failed|longer than/.test(log))
      fail(`the store did not shut down cleanly:\n${log}`)
  }

  // Read once the store has exited, so that every line it wrote is in.
  // DEMO_MODE=0 logs JSON lines (npm's own header lines aside), one per request with its id, no personal data.
  const lines = log.split('\n').filter((line) => line.startsWith('{'))
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>
    } catch {
      return fail(`a log line is not JSON: ${line}`)
    }
  })
  if (!parsed.some((line) => line.module === 'http' && line.reqId === requestId && line.route === '/services'))
    fail(`no JSON request line for /services with request id ${requestId}:\n${log}`)
  if (/9876543210|ABCPE1234F/.test(log)) fail(`the log holds the phone number or PAN of the query:\n${log}`)
  console.log('PASS: the runtime stage (production dependencies only, DEMO_MODE=0) started, served and stopped cleanly')
} finally {
  await dropDatabase(serverUrl, databaseName).catch(() => {})
  await rm(image, { recursive: true, force: true })
}
