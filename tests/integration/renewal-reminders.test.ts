import { randomInt } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatIndiaDate, MS_PER_DAY } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { jobQueue } from '~/server/jobs/queue.server'
import { sendRenewalReminders } from '~/server/payments/renewal-reminders.server'
import { createService, createUser } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

// The renewal reminders (docs/payments.md, "Renewals"): 7 days and 1 day before the end and at the
// end, by e-mail and SMS, once per stage across instances, the latest stage only when several have
// passed, none once renewed, and no SMS in India's night. The clock is passed in.

const HOUR_MS = 3_600_000
let nextWeek = 0
/** A moment of its own for each test (weeks apart, at 12:00 IST), so one test's runs never reach another's rows. */
function noonIst(weeksFrom = ++nextWeek * 5): Date {
  return new Date(new Date('2027-03-01T12:00:00+05:30').getTime() + weeksFrom * 7 * MS_PER_DAY)
}

async function customer() {
  const userId = await createUser()
  const email = `renew-${randomInt(0, 1e9)}@example.in`
  const user = await prisma.user.update({ where: { id: userId }, data: { email, name: 'Asha Rao' } })
  return { userId, email, phone: user.phone }
}

async function subscribe(userId: string, serviceId: string, endsAt: Date, days = 30) {
  return prisma.subscription.create({
    data: {
      userId,
      serviceId,
      startsAt: new Date(endsAt.getTime() - days * MS_PER_DAY),
      endsAt,
      grantReason: 'test',
      grantedById: userId,
    },
  })
}

type QueuedSms = { to: string; text: string; startAfter: Date }
async function queuedSms(to: string): Promise<QueuedSms[]> {
  const jobs = await prisma.$queryRaw<{ data: { to: string; text: string }; start_after: Date }[]>`
    SELECT data, start_after FROM pgboss.job WHERE name = 'send-notice-sms' AND data->>'to' = ${to} ORDER BY created_on`
  return jobs.map((job) => ({ ...job.data, startAfter: job.start_after }))
}

// The queues' tables exist before a test looks into them for what was (not) queued.
beforeAll(async () => {
  await jobQueue()
})

describe('renewal reminders', () => {
  it('go 7 days before, 1 day before and at the end, each once, by e-mail and SMS, linking to the renewal', async () => {
    const endsAt = noonIst()
    const { userId, email, phone } = await customer()
    const service = await createService('Equity', 299_900, 30)
    await subscribe(userId, service.id, endsAt)
    const endsOn = formatIndiaDate(endsAt)
    const run = (msFromEnd: number) => sendRenewalReminders({ now: new Date(endsAt.getTime() + msFromEnd) })

    await run(-7 * MS_PER_DAY - HOUR_MS)
    expect(await queuedEmails(email)).toEqual([])

    await run(-7 * MS_PER_DAY)
    await run(-6 * MS_PER_DAY)
    let mails = await queuedEmails(email)
    expect(mails.map((mail) => mail.subject)).toEqual([`Your ${service.name} subscription ends on ${endsOn}`])
    expect(mails[0]).toMatchObject({ userId })
    expect(mails[0]!.body).toContain(`/renew/${service.id}`)
    let sms = await queuedSms(phone)
    expect(sms).toHaveLength(1)
    expect(sms[0]!.text).toContain(`/renew/${service.id}`)
    expect(sms[0]!.text).toContain(`ends on ${endsOn}`)

    await run(-MS_PER_DAY)
    await run(-MS_PER_DAY + HOUR_MS)
    await run(0)
    await run(HOUR_MS)
    mails = await queuedEmails(email)
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Your ${service.name} subscription ends on ${endsOn}`,
      `Your ${service.name} subscription ends tomorrow, ${endsOn}`,
      `Your ${service.name} subscription has ended`,
    ])
    expect(mails[2]!.body).toContain(`/renew/${service.id}`)
    sms = await queuedSms(phone)
    expect(sms.map((message) => message.text)).toEqual([
      expect.stringContaining(`ends on ${endsOn}`),
      expect.stringContaining(`ends tomorrow, ${endsOn}`),
      expect.stringContaining(`ended on ${endsOn}`),
    ])
  })

  it('two instances running at once send each reminder once', async () => {
    const endsAt = noonIst()
    const customers = await Promise.all(Array.from({ length: 5 }, () => customer()))
    const service = await createService('Swing', 99_900, 30)
    for (const { userId } of customers) await subscribe(userId, service.id, endsAt)
    const now = new Date(endsAt.getTime() - MS_PER_DAY)

    const counts = await Promise.all([
      sendRenewalReminders({ now, batchRows: 2 }),
      sendRenewalReminders({ now, batchRows: 2 }),
    ])

    expect(counts[0] + counts[1]).toBe(5)
    for (const { email, phone } of customers) {
      expect(await queuedEmails(email)).toHaveLength(1)
      expect(await queuedSms(phone)).toHaveLength(1)
    }
  })

  it('when the clock passes several stages at once, one message: the latest stage', async () => {
    const endsAt = noonIst()
    const { userId, email, phone } = await customer()
    const service = await createService('Options', 199_900, 30)
    const subscription = await subscribe(userId, service.id, endsAt)

    await sendRenewalReminders({ now: new Date(endsAt.getTime() + 2 * HOUR_MS) })
    await sendRenewalReminders({ now: new Date(endsAt.getTime() + 3 * HOUR_MS) })

    expect((await queuedEmails(email)).map((mail) => mail.subject)).toEqual([
      `Your ${service.name} subscription has ended`,
    ])
    expect(await queuedSms(phone)).toHaveLength(1)
    expect(await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).toMatchObject({
      reminderStage: 3,
    })
  })

  it('none for a service already renewed, nor for a period ended early; the renewal is reminded in its turn', async () => {
    const endsAt = noonIst()
    const { userId, email } = await customer()
    const service = await createService('Renewed', 299_900, 30)
    await subscribe(userId, service.id, endsAt)
    const renewalEndsAt = new Date(endsAt.getTime() + 30 * MS_PER_DAY)
    await subscribe(userId, service.id, renewalEndsAt)
    const other = await createService('Stopped', 299_900, 30)
    await prisma.subscription.update({
      where: { id: (await subscribe(userId, other.id, endsAt)).id },
      // Ended early (a refund): its end moved to endsAt from 10 days later.
      data: {
        endedAt: new Date(endsAt.getTime() - 10 * MS_PER_DAY),
        originalEndsAt: new Date(endsAt.getTime() + 10 * MS_PER_DAY),
      },
    })

    for (const days of [-7, -1, 0]) await sendRenewalReminders({ now: new Date(endsAt.getTime() + days * MS_PER_DAY) })
    expect(await queuedEmails(email)).toEqual([])

    await sendRenewalReminders({ now: new Date(endsAt.getTime() + 29 * MS_PER_DAY) })
    expect((await queuedEmails(email)).map((mail) => mail.subject)).toEqual([
      `Your ${service.name} subscription ends tomorrow, ${formatIndiaDate(renewalEndsAt)}`,
    ])
  })

  it('in India’s night the e-mail goes at once and the SMS waits for 09:00', async () => {
    // Ends at 23:30 IST: its day-before reminder is due at 23:30 IST.
    const endsAt = new Date(noonIst().getTime() + 11.5 * HOUR_MS)
    const { userId, email, phone } = await customer()
    const service = await createService('Night', 299_900, 30)
    await subscribe(userId, service.id, endsAt)
    const now = new Date(endsAt.getTime() - MS_PER_DAY)

    await sendRenewalReminders({ now })

    expect(await queuedEmails(email)).toHaveLength(1)
    const [sms, ...more] = await queuedSms(phone)
    expect(more).toEqual([])
    // 09:00 IST the next morning.
    expect(sms!.startAfter).toEqual(new Date(endsAt.getTime() - MS_PER_DAY + 9.5 * HOUR_MS))
  })

  it('without a DLT template for reminders, no SMS; the e-mail still goes', async () => {
    const endsAt = noonIst()
    const { userId, email, phone } = await customer()
    const service = await createService('Mail only', 299_900, 30)
    await subscribe(userId, service.id, endsAt)

    await sendRenewalReminders({ now: new Date(endsAt.getTime() - MS_PER_DAY), sms: false })

    expect(await queuedEmails(email)).toHaveLength(1)
    expect(await queuedSms(phone)).toEqual([])
  })
})
