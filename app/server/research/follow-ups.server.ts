import {
  followUpFigures,
  followUpKindsFor,
  followUpProblems,
  followUpTitle,
  type FollowUpField,
  type FollowUpKind,
} from '~/domain/research-follow-ups'
import type { FollowUpForm } from '~/domain/research'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { callOf, researchItemSelect, type ResearchItemRow } from './items.server'

// Follow-ups, corrections and withdrawals (docs/research.md): each is a draft of its own, signed
// when published like any item, naming its original; publishing it copies the original's roll
// instead of taking a new one, so it reaches exactly the customers the original reached.

/** The published report or call a follow-up can be written for; null for a draft or a follow-up. */
export async function followableResearchItem(itemId: string): Promise<ResearchItemRow | null> {
  const item = await prisma.researchItem.findUnique({ where: { id: itemId }, select: researchItemSelect })
  return item && item.status === 'PUBLISHED' && item.kind !== 'FOLLOW_UP' ? item : null
}

/** The kinds of the follow-ups published of `original` so far, oldest first. */
export const publishedFollowUpKinds = (original: Pick<ResearchItemRow, 'followUps'>): FollowUpKind[] =>
  original.followUps.flatMap(({ followUpKind }) => (followUpKind ? [followUpKind] : []))

export type FollowUpDraftResult =
  | { ok: true; id: string }
  | { ok: false; reason: 'not-followable' }
  | { ok: false; reason: 'invalid'; field: FollowUpField; message: string }

/** A follow-up draft of `originalId` by `authorId`, for the original's services, audited in the same transaction. */
export async function createFollowUpDraft(
  authorId: string,
  originalId: string,
  form: FollowUpForm,
  now = new Date(),
): Promise<FollowUpDraftResult> {
  const original = await followableResearchItem(originalId)
  if (!original) return { ok: false, reason: 'not-followable' }
  const figures = followUpFigures(form.kind, {
    targetsPaise: form.targets,
    stopLossPaise: form.stopLoss ?? null,
    pricePaise: form.price ?? null,
  })
  const [problem] = followUpProblems(callOf(original), figures, publishedFollowUpKinds(original))
  if (problem) return { ok: false, reason: 'invalid', ...problem }
  const title = followUpTitle(form.kind, original.title)
  const created = await prisma.$transaction(async (tx) => {
    const item = await tx.researchItem.create({
      data: {
        kind: 'FOLLOW_UP',
        originalId,
        followUpKind: figures.kind,
        targetsPaise: figures.targetsPaise,
        stopLossPaise: figures.stopLossPaise,
        pricePaise: figures.pricePaise,
        title,
        body: form.body,
        financialInterest: form.financialInterest,
        ownershipOnePercent: form.ownershipOnePercent,
        compensationPastYear: form.compensationPastYear,
        otherConflict: form.otherConflict,
        aiToolsUsed: form.aiToolsUsed,
        authorId,
        createdAt: now,
        services: { create: original.services.map(({ service }) => ({ serviceId: service.id })) },
      },
      select: { id: true },
    })
    await recordAudit(
      tx,
      {
        actorId: authorId,
        action: 'research.draft',
        subjectType: 'research_item',
        subjectId: item.id,
        before: null,
        after: { title, kind: 'FOLLOW_UP', originalId, followUpKind: figures.kind },
      },
      now,
    )
    return item
  })
  return { ok: true, id: created.id }
}

/**
 * Whether a follow-up of `kind` may still be published of `originalId`, read under the original's
 * row lock in the publishing transaction: two follow-ups published at once are decided one after
 * the other, so a revision cannot slip in beside the close that ends the call.
 */
export async function followUpStillAllowed(
  tx: Prisma.TransactionClient,
  originalId: string,
  kind: FollowUpKind,
): Promise<boolean> {
  const [original] = await tx.$queryRaw<{ kind: string }[]>`
    SELECT kind::text AS kind FROM research_items WHERE id = ${originalId}::uuid FOR UPDATE`
  if (!original) return false
  const published = await tx.researchItem.findMany({
    where: { originalId, status: 'PUBLISHED' },
    select: { followUpKind: true },
  })
  const kinds = published.flatMap(({ followUpKind }) => (followUpKind ? [followUpKind] : []))
  return followUpKindsFor(original.kind === 'CALL' ? 'CALL' : 'REPORT', kinds).includes(kind)
}

/**
 * A follow-up's roll, in the publishing transaction, by one set-based statement: the original's
 * roll as it stands (frozen when the original was published), delivered at `now`. The follow-up's
 * own roll is empty (a draft, locked), so nothing conflicts (no ON CONFLICT: decision 063).
 */
export async function copyOriginalRoll(
  tx: Prisma.TransactionClient,
  itemId: string,
  originalId: string,
  now: Date,
): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO research_roll (item_id, user_id, delivered_at)
    SELECT ${itemId}::uuid, r.user_id, ${now}::timestamptz
    FROM research_roll r
    WHERE r.item_id = ${originalId}::uuid`
}
