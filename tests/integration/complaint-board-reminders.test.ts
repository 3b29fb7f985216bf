import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { indiaMidnight } from '~/domain/dates'
import { businessDetails } from '~/server/business.server'
import { publishComplaintMonth } from '~/server/complaints/board-publishing.server'
import { sendComplaintBoardReminder } from '~/server/complaints/board-reminders.server'
import { prisma } from '~/server/db.server'
import { jobQueue, stopJobs } from '~/server/jobs/queue.server'
import { queuedEmails } from '../support/queued-emails'
import { signedInUser } from '../support/sessions'

// The compliance officer's reminders of an unpublished complaint board month, with the clock injected.

afterAll(() => stopJobs())

/** 09:05 IST on an India date, when the daily job runs. */
const at = (isoDate: string) => new Date(indiaMidnight(isoDate).getTime() + (9 * 60 + 5) * 60_000)

const officer = businessDetails.complianceOfficer
const reminders = async () =>
  (await queuedEmails(officer.email)).filter((email) => email.subject.includes('publish October 2026'))

beforeEach(async () => {
  await prisma.complaintBoardMonth.deleteMany()
  await prisma.complaintBoardReminder.deleteMany()
  await jobQueue()
  await prisma.$executeRaw`DELETE FROM pgboss.job WHERE name = 'send-email'`
})

describe('sendComplaintBoardReminder', () => {
  it('e-mails the compliance officer on the 1st and again on the 5th while last month is unpublished, once a day each', async () => {
    expect(await sendComplaintBoardReminder(at('2026-11-01'))).toBe(1)
    // Later the same day, and the days after: the 1st's reminder is sent.
    expect(await sendComplaintBoardReminder(new Date(at('2026-11-01').getTime() + 3 * 60 * 60_000))).toBeNull()
    for (const day of ['2026-11-02', '2026-11-03', '2026-11-04'])
      expect(await sendComplaintBoardReminder(at(day))).toBeNull()
    expect(await sendComplaintBoardReminder(at('2026-11-05'))).toBe(5)
    for (const day of ['2026-11-05', '2026-11-06', '2026-11-07', '2026-11-20'])
      expect(await sendComplaintBoardReminder(at(day))).toBeNull()

    const sent = await reminders()
    expect(sent.map((email) => email.subject)).toEqual([
      'Complaint board: publish October 2026 by 7 November 2026',
      'Second reminder: publish October 2026 by 7 November 2026',
    ])
    expect(sent[0]!.body).toContain('The complaint data of October 2026 is not yet on the complaint board.')
    expect(sent[0]!.body).toContain('/admin/complaint-board')
  })

  it('sends each reminder once when two instances run the job at the same moment', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => sendComplaintBoardReminder(at('2026-11-01'))))
    expect(runs.filter((day) => day === 1)).toHaveLength(1)
    expect(await reminders()).toHaveLength(1)
  })

  it('sends nothing once the month is published', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await sendComplaintBoardReminder(at('2026-11-01'))).toBe(1)
    expect(
      await publishComplaintMonth(admin.userId, '2026-10', {
        path: 'hand',
        lastEnded: '2026-10',
        now: at('2026-11-03'),
      }),
    ).toMatchObject({ ok: true })
    expect(await sendComplaintBoardReminder(at('2026-11-05'))).toBeNull()
    expect(await reminders()).toHaveLength(1)
  })

  it("sends the 5th's reminder alone when the store was down from the 1st to the 4th", async () => {
    expect(await sendComplaintBoardReminder(at('2026-11-06'))).toBe(5)
    expect((await reminders()).map((email) => email.subject)).toEqual([
      'Second reminder: publish October 2026 by 7 November 2026',
    ])
  })
})
