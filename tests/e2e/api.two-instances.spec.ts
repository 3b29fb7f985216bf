// Two store processes on one PostgreSQL, as behind a load balancer: the end-to-end server is
// instance A; this file starts instance B (`scripts/start.mjs`, the same build and settings) on the
// next port and the same database. Cookies do not depend on the port, so one signed-in client
// speaks to both.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { E2E_BUSINESS_ENV } from '../fixtures/business-details'
import {
  apiClient,
  availableServices,
  checkoutBody,
  customerWithCart,
  json,
  pendingPayments,
  sandboxPay,
} from './api-client'
import { e2eDatabaseUrlFile, withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { uniqueMobile } from './sign-in-helpers'

const MS_PER_DAY = 24 * 60 * 60_000
let instanceB: ChildProcess | undefined
let instanceBOutput = ''
let instanceBUrl = ''

// One worker runs the file's tests in order: a second worker would start a second instance B.
test.describe.configure({ mode: 'default' })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const port = Number(new URL(test.info().project.use.baseURL!).port) + 1
  instanceBUrl = `http://localhost:${port}`
  instanceB = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      ...E2E_BUSINESS_ENV,
      DATABASE_URL: (await readFile(e2eDatabaseUrlFile(), 'utf8')).trim(),
      DEMO_MODE: '1',
      PORT: String(port),
    },
  })
  for (const stream of [instanceB.stdout!, instanceB.stderr!])
    stream.on('data', (chunk: Buffer) => (instanceBOutput += chunk.toString()))
  await expect
    .poll(
      async () => {
        if (instanceB!.exitCode !== null) throw new Error(`Instance B exited:\n${instanceBOutput}`)
        return (await fetch(`${instanceBUrl}/healthz`).catch(() => undefined))?.status
      },
      { timeout: 150_000, message: 'instance B answers /healthz' },
    )
    .toBe(200)
})

test.afterAll(async () => {
  if (!instanceB || instanceB.exitCode !== null) return
  const exited = new Promise((resolve) => instanceB!.once('exit', resolve))
  instanceB.kill('SIGTERM')
  await exited
})

test.afterEach(async () => {
  const testInfo = test.info()
  if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('instance B output', { body: instanceBOutput })
})

test('a service an admin creates and takes off sale through A is listed, then unlisted, by B', async ({
  admin: { page },
  playwright,
}) => {
  const { context: api } = await apiClient(playwright.request, instanceBUrl)
  const name = `Two Instances Desk ${randomInt(1e6)}`
  const listedByB = async () => (await availableServices(api)).some((entry) => entry.service.name === name)
  // B has the list cached (for 10 minutes) before A changes it: only A's announcement makes B reload.
  expect(await listedByB()).toBe(false)

  await page.goto('/admin/services/new')
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Description').fill('Seen through both instances')
  await page.getByLabel('Price in rupees').fill('999')
  await page.getByLabel('Duration in days').fill('30')
  await page.getByLabel('Risk level').selectOption({ label: 'High' })
  await page.getByLabel('How and how often the research is delivered').fill('A note every Friday, on this website')
  await page.getByRole('button', { name: 'Create service' }).click()
  await expect(page.getByText('Service created; it is on sale now.')).toBeVisible()
  await expect.poll(listedByB, { timeout: 5_000 }).toBe(true)

  await page.goto('/admin/services')
  await page.getByRole('button', { name: `Take off sale: ${name}` }).click()
  await expect(page.getByRole('article', { name }).getByText('Taken off sale.')).toBeVisible()
  await expect.poll(listedByB, { timeout: 5_000 }).toBe(false)
  await api.dispose()
})

test('a payment verified through A while its webhook arrives at B pays once, and B shows it at once', async ({
  playwright,
  baseURL,
}) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const onB = (path: string) => `${instanceBUrl}${path}`
  const subscriptionsOnB = async (): Promise<{ service: string; endDate: string }[]> =>
    (await json(await api.get(onB('/api/v1/subscriptions/get-active-subscriptions')))).data.data.activeSubscriptions
  // B caches the customer's (empty) subscriptions before A pays them.
  expect(await subscriptionsOnB()).toEqual([])
  const { order } = (
    await json(await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }))
  ).data.data
  const { razorpayResponse, webhook } = await sandboxPay(api, order.id, 'captured', 'payment.captured')

  const razorpay = await playwright.request.newContext()
  const before = Date.now()
  const [verified, delivered] = await Promise.all([
    api.post('/api/v1/payments/verify-payment', { headers: xsrf, data: { razorpayResponse } }),
    razorpay.post(onB('/webhooks/razorpay'), { headers: webhook!.headers, data: webhook!.body }),
  ])
  expect((await json(verified)).data).toEqual({ paymentId: expect.any(String), status: 'paid' })
  expect(delivered.status()).toBe(200)
  expect(['processed', 'duplicate']).toContain((await delivered.json()).outcome)

  await expect.poll(async () => (await subscriptionsOnB()).length, { timeout: 5_000 }).toBe(cart.length)
  const onBAfterPaying = await subscriptionsOnB()
  for (const entry of cart) {
    // Paid once: one duration from the payment, not two chained ones.
    const end = Date.parse(onBAfterPaying.find((active) => active.service === entry.service._id)!.endDate)
    expect(end).toBeLessThanOrEqual(Date.now() + entry.service.duration * MS_PER_DAY)
    expect(end).toBeGreaterThan(before + (entry.service.duration - 1) * MS_PER_DAY)
  }
  expect(await pendingPayments(api)).toEqual([])
  const ledgerRows = await withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM ledger_entries WHERE payment_id = (SELECT id FROM payments WHERE gateway_order_id = $1)',
      [order.id],
    )
    return rows[0].n as number
  })
  expect(ledgerRows).toBe(1)
  await razorpay.dispose()
  await api.dispose()
})

test('the wait between sign-in codes for a number counts requests made to either instance', async ({
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  const number = `+91${uniqueMobile()}`
  expect((await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })).status()).toBe(200)
  const onB = await api.post(`${instanceBUrl}/api/v1/otp/request`, { headers: xsrf, data: { number } })
  expect(onB.status()).toBe(429)
  expect(Number(onB.headers()['retry-after'])).toBeGreaterThan(0)
  await api.dispose()
})

test('a scheduled job runs on one instance only, once per tick', async () => {
  test.setTimeout(180_000)
  // Settling payments runs every 5 minutes; for this test every minute, so a tick falls while both run.
  const since = await withE2eDatabase(async (client) => {
    const { rows } = await client.query(
      `UPDATE pgboss.schedule SET cron = '* * * * *' WHERE name = 'settle-payments' RETURNING now() AS since`,
    )
    return rows[0].since as Date
  })
  try {
    const runsPerMinute = () =>
      withE2eDatabase(async (client) => {
        const { rows } = await client.query(
          `SELECT date_trunc('minute', created_on) AS minute, count(*)::int AS runs
             FROM (SELECT created_on FROM pgboss.job WHERE name = 'settle-payments' AND created_on > $1
                   UNION ALL SELECT created_on FROM pgboss.archive WHERE name = 'settle-payments' AND created_on > $1) jobs
            GROUP BY 1 ORDER BY 1`,
          [since],
        )
        return rows.map((row) => row.runs as number)
      })
    await expect
      .poll(async () => (await runsPerMinute()).length, { timeout: 150_000, intervals: [2_000] })
      .toBeGreaterThan(0)
    const runs = await runsPerMinute()
    expect(runs).toEqual(runs.map(() => 1))
  } finally {
    await withE2eDatabase((client) =>
      client.query(`UPDATE pgboss.schedule SET cron = '*/5 * * * *' WHERE name = 'settle-payments'`),
    )
  }
})
