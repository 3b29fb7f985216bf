import { getErrorMessage } from '~/domain/error-message'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { loggerFor } from '../operations/logger.server'
import { publishResearchItem } from './publishing.server'
import { researchSigningKey, type ResearchSigningKey } from './signing.server'

const log = loggerFor('research')

// Scheduled publishing (docs/research.md): a draft scheduled for a later minute is published by the
// research-scheduled job through publishResearchItem, so the roll is taken then. Every instance runs
// the job; the publishing transaction's row lock makes the roll be taken once however many run.

/** Scheduled items one run of the job publishes at most; the next run, a minute later, goes on (docs/limits.md). */
export const SCHEDULED_RESEARCH_BATCH_SIZE = 20

export type ScheduleChange = { ok: true } | { ok: false; reason: 'not-found' | 'not-draft' | 'not-scheduled' }

/** Schedules a draft for `at` (checked by readScheduleTime), audited. */
export async function scheduleResearchItem(
  itemId: string,
  adminId: string,
  at: Date,
  now = new Date(),
): Promise<ScheduleChange> {
  return prisma.$transaction(async (tx) => {
    const changed = await tx.researchItem.updateMany({
      where: { id: itemId, status: 'DRAFT' },
      data: { status: 'SCHEDULED', scheduledAt: at, scheduledById: adminId },
    })
    if (changed.count !== 1)
      return { ok: false, reason: (await tx.researchItem.count({ where: { id: itemId } })) ? 'not-draft' : 'not-found' }
    await recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'research.schedule',
        subjectType: 'research_item',
        subjectId: itemId,
        before: { status: 'DRAFT' },
        after: { status: 'SCHEDULED', scheduledAt: at.toISOString() },
      },
      now,
    )
    return { ok: true }
  })
}

/** Takes a scheduled item back to a draft, audited; one being published meanwhile stays published. */
export async function cancelResearchSchedule(
  itemId: string,
  adminId: string,
  now = new Date(),
): Promise<ScheduleChange> {
  return prisma.$transaction(async (tx) => {
    const [scheduled] = await tx.$queryRaw<{ scheduled_at: Date }[]>`
      SELECT scheduled_at FROM research_items WHERE id = ${itemId}::uuid AND status = 'SCHEDULED' FOR UPDATE`
    if (!scheduled) return { ok: false, reason: 'not-scheduled' }
    await tx.researchItem.update({
      where: { id: itemId },
      data: { status: 'DRAFT', scheduledAt: null, scheduledById: null },
    })
    await recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'research.unschedule',
        subjectType: 'research_item',
        subjectId: itemId,
        before: { status: 'SCHEDULED', scheduledAt: scheduled.scheduled_at.toISOString() },
        after: { status: 'DRAFT' },
      },
      now,
    )
    return { ok: true }
  })
}

/**
 * The job: publishes every scheduled item due at `now`, as the admin who scheduled it. Runs at once
 * on two instances both read the same items; publishResearchItem locks each, so one publishes it
 * and the other is told it is published.
 */
export async function publishDueScheduledResearch(
  now = new Date(),
  key: ResearchSigningKey = researchSigningKey(),
): Promise<{ published: number }> {
  const due = await prisma.researchItem.findMany({
    where: { status: 'SCHEDULED', scheduledAt: { lte: now } },
    select: { id: true, scheduledById: true },
    orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }],
    take: SCHEDULED_RESEARCH_BATCH_SIZE,
  })
  let published = 0
  for (const item of due) {
    try {
      const result = await publishResearchItem(item.id, item.scheduledById!, now, key, { scheduledOnly: true })
      if (result.ok) published++
      else if (result.reason === 'original-ended') {
        // It would be refused at every run: back to a draft, for the analyst to see on the desk.
        await cancelResearchSchedule(item.id, item.scheduledById!, now)
        log.warn({ itemId: item.id }, 'A scheduled follow-up was not published: its original has ended')
      }
    } catch (error) {
      log.error({ itemId: item.id }, `Publishing a scheduled research item failed: ${getErrorMessage(error)}`)
    }
  }
  return { published }
}
