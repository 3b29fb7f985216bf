import { captureLogLines } from '~/server/operations/logger.server'
import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { prisma } from '~/server/db.server'
import { deliverOtpSms, settleSmsJob, type SmsJob } from '~/server/messaging/delivery.server'
import { startJobWorkers } from '~/server/jobs/workers.server'
import { forgetLeftoverSmsJobs, stopJobs } from '~/server/jobs/queue.server'
import { requestOtp } from '~/server/auth/one-time-codes.server'
import { SmsDeliveryError, type SmsProvider } from '~/server/messaging/sms.server'

afterAll(() => stopJobs())

const uniquePhone = () => `+919${String(randomInt(0, 1e9)).padStart(9, '0')}`
const uniqueIp = () => `10.2.${randomInt(256)}.${randomInt(256)}`
const sms = { to: '+919876543210', code: '482913', text: '482913 is your Research Store sign-in code.' }

const failing = (error: Error): SmsProvider => ({
  name: 'failing',
  sendOtp: async () => {
    throw error
  },
  sendNotice: async () => {
    throw error
  },
})
const delivered: SmsJob['data'][] = []
const recording: SmsProvider = {
  name: 'recording',
  sendOtp: async (message) => void delivered.push(message),
  sendNotice: async () => {},
}

type SmsJobRow = {
  id: string
  state: string
  retry_count: number
  retry_limit: number
  data: SmsJob['data']
  keep_until: Date
  created_on: Date
}

/** The queued SMS jobs to `phone`, in pg-boss's job table and its archive. */
async function smsJobRows(phone: string): Promise<{ jobs: SmsJobRow[]; archived: number }> {
  const jobs = await prisma.$queryRaw<SmsJobRow[]>`
    SELECT id::text, state::text, retry_count, retry_limit, data, keep_until, created_on
    FROM pgboss.job WHERE name = 'send-sms' AND data->>'to' = ${phone}`
  const [archive] = await prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count FROM pgboss.archive WHERE name = 'send-sms' AND data->>'to' = ${phone}`
  return { jobs, archived: archive!.count }
}

/** Sends a code to a new number and returns its queued job, as the worker would fetch it on try `retryCount`. */
async function queuedSmsJob(retryCount = 0): Promise<SmsJob & { phone: string }> {
  const phone = uniquePhone()
  expect(await requestOtp({ phone, ip: uniqueIp() })).toEqual({ ok: true })
  const [row] = (await smsJobRows(phone)).jobs
  return { phone, id: row!.id, data: row!.data, retryCount, retryLimit: row!.retry_limit }
}

describe('deliverOtpSms', () => {
  it('lets a retryable failure through, so pg-boss retries the job', async () => {
    await expect(deliverOtpSms(sms, failing(new SmsDeliveryError('MSG91 answered 503: busy', true)))).rejects.toThrow(
      '503',
    )
    await expect(deliverOtpSms(sms, failing(new Error('socket hang up')))).rejects.toThrow('socket hang up')
  })

  it('drops a final refusal (a provider 4xx): retrying would fail the same way', async () => {
    await expect(
      deliverOtpSms(sms, failing(new SmsDeliveryError('MSG91 answered 400: bad number', false))),
    ).resolves.toBeUndefined()
  })
})

describe('an SMS job does not keep its code', () => {
  it('is queued to be dropped when its code expires', async () => {
    const { phone } = await queuedSmsJob()
    const [row] = (await smsJobRows(phone)).jobs
    expect(row!.keep_until.getTime() - row!.created_on.getTime()).toBeGreaterThanOrEqual(5 * 60_000 - 1_000)
    expect(row!.keep_until.getTime() - row!.created_on.getTime()).toBeLessThanOrEqual(5 * 60_000 + 1_000)
  })

  it('is deleted once the message is delivered', async () => {
    const job = await queuedSmsJob()
    await settleSmsJob(job, recording)
    expect(delivered.at(-1)).toMatchObject({ to: job.phone, code: job.data.code })
    expect(await smsJobRows(job.phone)).toEqual({ jobs: [], archived: 0 })
  })

  it('is deleted when the provider refuses it for good', async () => {
    const job = await queuedSmsJob()
    await settleSmsJob(job, failing(new SmsDeliveryError('MSG91 answered 401', false)))
    expect(await smsJobRows(job.phone)).toEqual({ jobs: [], archived: 0 })
  })

  it('is kept for a retry after a retryable failure, and deleted when the last try fails', async () => {
    const job = await queuedSmsJob()
    const busy = failing(new SmsDeliveryError('MSG91 answered 503', true))
    await expect(settleSmsJob(job, busy)).rejects.toThrow('503')
    expect((await smsJobRows(job.phone)).jobs).toHaveLength(1)
    await settleSmsJob({ ...job, retryCount: job.retryLimit }, busy)
    expect(await smsJobRows(job.phone)).toEqual({ jobs: [], archived: 0 })
  })

  it('left over (failed, expired unsent, or archived) is deleted after maintenance; a waiting one is kept', async () => {
    const failed = await queuedSmsJob()
    const expired = await queuedSmsJob()
    const archived = await queuedSmsJob()
    const waiting = await queuedSmsJob()
    await prisma.$executeRaw`UPDATE pgboss.job SET state = 'failed', completed_on = now() WHERE id = ${failed.id}::uuid`
    await prisma.$executeRaw`UPDATE pgboss.job SET keep_until = now() - interval '1 second' WHERE id = ${expired.id}::uuid`
    await prisma.$executeRaw`
      WITH moved AS (DELETE FROM pgboss.job WHERE id = ${archived.id}::uuid RETURNING *)
      INSERT INTO pgboss.archive (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff,
        start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output)
      SELECT id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff,
        start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output FROM moved`
    expect((await smsJobRows(archived.phone)).archived).toBe(1)

    expect(await forgetLeftoverSmsJobs()).toBeGreaterThanOrEqual(3)
    for (const gone of [failed, expired, archived])
      expect(await smsJobRows(gone.phone)).toEqual({ jobs: [], archived: 0 })
    expect((await smsJobRows(waiting.phone)).jobs).toHaveLength(1)
  })

  it('through the running worker: the code reaches the dev outbox and no job row keeps it', async () => {
    const phone = uniquePhone()
    await startJobWorkers()
    await requestOtp({ phone, ip: uniqueIp() })
    await expect.poll(() => prisma.outboxMessage.count({ where: { recipient: phone } }), { timeout: 15_000 }).toBe(1)
    await expect.poll(() => smsJobRows(phone), { timeout: 15_000 }).toEqual({ jobs: [], archived: 0 })
  })
})

describe('the job queue when the database stops', () => {
  it('says so in one line instead of dumping the connection, and goes on working on new connections', async () => {
    await startJobWorkers()
    const log = captureLogLines()
    const jobLines = (level: string) => log.lines().filter((line) => line.module === 'jobs' && line.level === level)
    try {
      // What a stopping PostgreSQL does to its clients (and what Ctrl-C does to the embedded one).
      // The queue's pool opens its connections as it works: wait for one, or there is nothing to end.
      // Not while a job finishes: pg-boss does not await marking it complete, so that query cut off
      // rejects where nobody listens (the store logs it: process-rejections.test.ts). Wait for the
      // job the workers queue at start to be done; then only polling and idle connections remain.
      const jobsUnderWay = async () =>
        (
          await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pgboss.job
            WHERE state IN ('created', 'retry', 'active') AND start_after <= now()`
        )[0]!.n
      await expect.poll(jobsUnderWay, { timeout: 15_000 }).toBe(0)
      const terminated = async () =>
        (
          await prisma.$queryRaw<
            { ended: boolean }[]
          >`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'pgboss' AND datname = current_database()`
        ).length
      await expect.poll(terminated, { timeout: 10_000 }).toBeGreaterThan(0)
      await vi.waitFor(
        () =>
          expect(jobLines('warn').map((line) => line.msg)).toContain(
            'The database ended a connection (it is shutting down, or an administrator ended it)',
          ),
        // A connection is found ended when the pool next uses it: on a loaded machine that took over 10 s.
        { timeout: 30_000 },
      )
      expect(jobLines('error')).toEqual([])

      const phone = uniquePhone()
      await requestOtp({ phone, ip: uniqueIp() })
      await expect.poll(() => prisma.outboxMessage.count({ where: { recipient: phone } }), { timeout: 15_000 }).toBe(1)
    } finally {
      log.stop()
    }
  }, 60_000)
})
