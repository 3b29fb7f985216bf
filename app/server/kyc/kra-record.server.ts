import { calendarDateOf } from '~/domain/dates'
import { isUuid } from '~/domain/uuid'
import {
  KRA_RECORD_REVIEW_LABELS,
  kraRecordFieldWords,
  kraRecordState,
  type KraRecordReview,
  type KraRecordReviewedFor,
  type KraRecordState,
  type PersonDetails,
} from '~/domain/kra-record-match'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { notifyKraRecordDecided } from '../messaging/customer-notices.server'

// The KRA's record must match the profile (decision 047): what the KRA holds beside the profile,
// where that stands (app/domain/kra-record-match.ts), and the admin's decision on a difference.

type Db = Prisma.TransactionClient | typeof prisma

export const kraRecordSelect = {
  name: true,
  dateOfBirth: true,
  kycNameOnRecord: true,
  kycDobOnRecord: true,
  kycRecordReview: true,
  kycRecordReviewedFor: true,
} as const satisfies Prisma.UserSelect

type KraRecordRow = Prisma.UserGetPayload<{ select: typeof kraRecordSelect }>

export function profileAndRecord(row: KraRecordRow): KraRecordReviewedFor {
  const date = (value: Date | null) => (value ? calendarDateOf(value) : null)
  return {
    profile: { name: row.name, dob: date(row.dateOfBirth) },
    record: { name: row.kycNameOnRecord, dob: date(row.kycDobOnRecord) },
  }
}

function isPersonDetails(value: unknown): value is PersonDetails {
  if (typeof value !== 'object' || value === null) return false
  const { name, dob } = value as Record<string, unknown>
  return (name === null || typeof name === 'string') && (dob === null || typeof dob === 'string')
}

function readReviewedFor(value: Prisma.JsonValue | null): KraRecordReviewedFor | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  return isPersonDetails(value.profile) && isPersonDetails(value.record)
    ? { profile: value.profile, record: value.record }
    : null
}

export function kraRecordStateOf(row: KraRecordRow): KraRecordState {
  const { profile, record } = profileAndRecord(row)
  const reviewedFor = readReviewedFor(row.kycRecordReviewedFor)
  return kraRecordState(
    profile,
    record,
    row.kycRecordReview && reviewedFor ? { decision: row.kycRecordReview, reviewedFor } : null,
  )
}

export async function readKraRecordState(db: Db, userId: string): Promise<KraRecordState | null> {
  const row = await db.user.findUnique({ where: { id: userId }, select: kraRecordSelect })
  return row ? kraRecordStateOf(row) : null
}

export type KraRecordDecisionOutcome = { ok: true; message: string } | { ok: false; status: 404 | 409; message: string }

/**
 * The admin's decision on a KRA record that differs from the profile: accepted (the same person:
 * paying is allowed) or the customer asked to correct their details. Made on the values read under
 * the row's lock and kept with them, so a later change of the profile or the record asks again.
 * Audited (`customer.kra-record.accept` / `customer.kra-record.ask-correction`) in the same transaction;
 * after it commits the customer is e-mailed the decision and what to do next.
 */
export async function decideKraRecord(
  actorId: string,
  userId: string,
  decision: KraRecordReview,
  now = new Date(),
): Promise<KraRecordDecisionOutcome> {
  if (!isUuid(userId)) return { ok: false, status: 404, message: 'That customer does not exist.' }
  const outcome = await prisma.$transaction(async (tx): Promise<KraRecordDecisionOutcome & { fields?: string }> => {
    const locked = await tx.$queryRaw<
      { id: string }[]
    >`SELECT "id" FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`
    if (locked.length === 0) return { ok: false, status: 404, message: 'That customer does not exist.' }
    const row = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { ...kraRecordSelect, kycRecordReviewedAt: true },
    })
    const state = kraRecordStateOf(row)
    if (state.kind === 'match')
      return {
        ok: false,
        status: 409,
        message: "Nothing to decide: the KRA's record now matches the profile.",
      }
    const reviewedFor = profileAndRecord(row)
    await tx.user.update({
      where: { id: userId },
      data: { kycRecordReview: decision, kycRecordReviewedAt: now, kycRecordReviewedFor: reviewedFor },
    })
    await recordAudit(
      tx,
      {
        actorId,
        action: decision === 'ACCEPTED' ? 'customer.kra-record.accept' : 'customer.kra-record.ask-correction',
        subjectType: 'User',
        subjectId: userId,
        before: {
          review: row.kycRecordReview,
          reviewedAt: row.kycRecordReviewedAt?.toISOString() ?? null,
          reviewedFor: row.kycRecordReviewedFor,
        },
        after: { review: decision, differences: state.differences, ...reviewedFor },
      },
      now,
    )
    return {
      ok: true,
      message: `Decided: ${KRA_RECORD_REVIEW_LABELS[decision].toLowerCase()}.`,
      fields: kraRecordFieldWords(state.differences),
    }
  })
  if (!outcome.ok) return outcome
  // Never fails the decision: it is made; notifyCustomer logs a failure to queue the e-mail.
  await notifyKraRecordDecided(userId, { accepted: decision === 'ACCEPTED', fields: outcome.fields ?? 'details' })
  return { ok: true, message: outcome.message }
}
