import { afterAll, describe, expect, it, vi } from 'vitest'
import { prisma } from '~/server/db.server'
import { enqueueEmail, stopJobs } from '~/server/jobs/queue.server'
import * as mail from '~/server/messaging/mail.server'
import { sendEmail, sendNoticeSms } from '~/server/messaging/delivery.server'
import { SmsDeliveryError, type SmsProvider } from '~/server/messaging/sms.server'
import { captureLogLines } from '~/server/operations/logger.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { serveHttpStackDuringTests } from '../support/app-server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

// GET /metrics (docs/operations.md, Metrics), read as Prometheus reads it, lists the figures an operator watches, and
// they move when the store works: a payment opened then paid, a job queued, messages sent and failed.
// The store is served inside the Express stack `npm start` uses, so request timings are counted too.

const served = serveHttpStackDuringTests()
afterAll(() => stopJobs())

type Series = Map<string, number>

/** The scrape as Prometheus parses it: `name{labels} value` per line, comments left out. */
async function scrape(): Promise<Series> {
  const response = await fetch(`${served.baseUrl}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/plain')
  expect(response.headers.get('cache-control')).toBe('no-store')
  const series: Series = new Map()
  for (const line of (await response.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    series.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return series
}

const value = (series: Series, name: string) => series.get(name) ?? 0

describe('GET /metrics', () => {
  it("lists the process, the pool, the store's figures and the request timings", async () => {
    await scrape()
    const series = await scrape()
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'research_store_database_up',
      'research_store_db_pool_connections{state="in_use"}',
      'research_store_db_pool_connections{state="max"}',
      'research_store_db_pool_waiting_queries',
      'research_store_payments_open{state="CREATED"}',
      'research_store_payments_open{state="PENDING_VERIFICATION"}',
      'research_store_payments_last_day{state="PAID"}',
      'research_store_payments_last_day{state="FAILED"}',
      'research_store_gateway_order_oldest_open_age_seconds',
      'research_store_refunds_open{status="DUE"}',
      'research_store_refunds_open{status="PENDING"}',
      'research_store_refunds_open{status="FAILED"}',
      'research_store_refund_oldest_open_age_seconds',
    ])
      expect(series.has(name), name).toBe(true)
    expect(value(series, 'research_store_database_up')).toBe(1)
    expect(value(series, 'research_store_db_pool_connections{state="max"}')).toBe(10)
    // The first scrape, timed by its route pattern and status class.
    expect(
      value(series, 'http_request_duration_seconds_count{method="GET",route="/metrics",status_class="2xx"}'),
    ).toBeGreaterThanOrEqual(1)
  })

  it('moves with a payment, a job and a message', async () => {
    const before = await scrape()
    const user = await createUser()
    const service = await createService('Metrics', 99_900, 30)
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000)
    const order = await createPaymentRow(user, [cartItemOf(service)], { createdAt: twentyMinutesAgo })
    const claim = await createPaymentRow(user, [cartItemOf(service)], { method: 'MANUAL' })

    const opened = await scrape()
    expect(value(opened, 'research_store_payments_open{state="CREATED"}')).toBe(
      value(before, 'research_store_payments_open{state="CREATED"}') + 1,
    )
    expect(value(opened, 'research_store_payments_open{state="PENDING_VERIFICATION"}')).toBe(
      value(before, 'research_store_payments_open{state="PENDING_VERIFICATION"}') + 1,
    )
    expect(value(opened, 'research_store_gateway_order_oldest_open_age_seconds')).toBeGreaterThanOrEqual(20 * 60)

    const log = captureLogLines()
    try {
      await markPaymentPaid(order.id, {
        gatewayPaymentId: `pay_metrics_${order.id.slice(0, 8)}`,
        paidAt: new Date(),
        source: 'webhook',
      })
    } finally {
      log.stop()
    }
    await enqueueEmail({
      to: 'metrics@example.in',
      template: 'test',
      subject: 'Queued for the metrics test',
      body: 'Hello',
    })
    await sendEmail({ to: 'metrics@example.in', template: 'test', subject: 'Sent for the metrics test', body: 'Hello' })
    const recording: SmsProvider = { name: 'recording', sendOtp: async () => {}, sendNotice: async () => {} }
    const refusing: SmsProvider = {
      name: 'refusing',
      sendOtp: async () => {},
      sendNotice: async () => {
        throw new SmsDeliveryError('the number is on the do-not-disturb list', false)
      },
    }
    const quiet = captureLogLines()
    try {
      await sendNoticeSms({ to: '+919876543210', text: 'A notice' }, recording)
      await sendNoticeSms({ to: '+919876543210', text: 'A notice' }, refusing)
      vi.spyOn(mail, 'deliverEmail').mockRejectedValueOnce(new mail.MailDeliveryError('550 no such mailbox', false))
      await sendEmail({ to: 'nobody@example.in', template: 'test', subject: 'Refused', body: 'Hello' })
    } finally {
      quiet.stop()
      vi.restoreAllMocks()
    }

    const after = await scrape()
    const moved = (name: string) => value(after, name) - value(before, name)
    // The payment: open, then paid (by the webhook, counted by this instance).
    expect(moved('research_store_payments_open{state="CREATED"}')).toBe(0)
    expect(moved('research_store_payments_open{state="PENDING_VERIFICATION"}')).toBe(1)
    expect(moved('research_store_payments_last_day{state="PAID"}')).toBe(1)
    expect(moved('research_store_payments_last_day{state="PENDING_VERIFICATION"}')).toBe(1)
    expect(moved('research_store_payments_paid_total{via="webhook"}')).toBe(1)
    // The job, waiting for a worker (none runs in this test).
    expect(moved('research_store_job_queue_depth{queue="send-email"}')).toBeGreaterThanOrEqual(1)
    expect(after.has('research_store_job_queue_oldest_age_seconds{queue="send-email"}')).toBe(true)
    // The messages, by channel and outcome.
    expect(moved('research_store_messages_total{channel="email",outcome="sent"}')).toBe(1)
    expect(moved('research_store_messages_total{channel="email",outcome="failed"}')).toBe(1)
    expect(moved('research_store_messages_total{channel="sms",outcome="sent"}')).toBe(1)
    expect(moved('research_store_messages_total{channel="sms",outcome="failed"}')).toBe(1)
    await prisma.payment.update({ where: { id: claim.id }, data: { status: 'EXPIRED' } })
  })
})
