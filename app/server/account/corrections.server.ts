import {
  CORRECTABLE_FIELDS,
  CORRECTION_CHANGE_LABELS,
  CORRECTION_FIELD_LABELS,
  type CorrectionChangeField,
  KYC_STATUS_LABELS,
  KYC_UNAVAILABLE_MESSAGE,
  type CorrectionValues,
} from '~/domain/kyc'
import { maskPan } from '~/domain/pan'
import { panTakenMessage, profileStep } from '~/domain/profile'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { businessDetails } from '../business.server'
import { panKeys, prisma } from '../db.server'
import { checkKyc, kycColumns, KycUnavailableError } from '../kyc/kra.server'
import { kraRecordSelect } from '../kyc/kra-record.server'
import { notifyCorrectionDecided } from '../messaging/customer-notices.server'
import { decryptPan, encryptPan, isEncryptedPan } from '../kyc/pan-crypto.server'
import { storePanCard, type PanCardUpload } from '../kyc/pan-card-image.server'
import { getFileStorage } from '../storage.server'
import { loggerFor } from '../operations/logger.server'

const log = loggerFor('account')

// A complete profile's KYC details (name, PAN, date of birth, PAN card image) change only through a correction
// request: the customer files it (/account/corrections), an admin approves or rejects it on the
// customer's page (audited with the old and new values), and approval asks the KRA again.

export type CorrectionOutcome = { ok: true; message: string } | { ok: false; status: number; message: string }

const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null)

type FieldValues = Record<string, string | null>

/**
 * A request's values as stored (and audited): the PAN encrypted like users.pan, since JSON passes
 * by the Prisma extension that encrypts columns (docs/architecture.md, "PANs at rest").
 */
export function sealPanIn<T extends FieldValues>(values: T): T {
  return typeof values.pan === 'string' ? { ...values, pan: encryptPan(panKeys, values.pan) } : values
}

/** The values with the PAN readable again; a request filed before encryption holds it in plaintext. */
export function openPanIn<T extends FieldValues>(values: T): T {
  return typeof values.pan === 'string' && isEncryptedPan(values.pan)
    ? { ...values, pan: decryptPan(panKeys, values.pan) }
    : values
}

function currentValues(user: { name: string | null; pan: string | null; dateOfBirth: Date | null }) {
  return { name: user.name, pan: user.pan, dob: isoDate(user.dateOfBirth) }
}

/** The customer's request: the fields whose new value differs from the saved one. One open request at a time. */
export async function fileCorrectionRequest(
  userId: string,
  request: CorrectionValues & { reason: string },
  now = new Date(),
  /** A new PAN card image (the page's form): stored now under the customer's folder, used on approval. */
  panCard?: PanCardUpload,
): Promise<CorrectionOutcome> {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
  if (profileStep(user) !== 'complete')
    return {
      ok: false,
      status: 409,
      message: 'Your profile is not complete yet: change your details in the profile wizard.',
    }
  const saved = currentValues(user)
  const changed = CORRECTABLE_FIELDS.filter((field) => request[field] !== undefined && request[field] !== saved[field])
  if (changed.length === 0 && !panCard)
    return { ok: false, status: 400, message: 'The values you entered are the ones we hold: nothing to correct.' }
  const oldValues: FieldValues = sealPanIn(Object.fromEntries(changed.map((field) => [field, saved[field]])))
  const newValues: FieldValues = sealPanIn(Object.fromEntries(changed.map((field) => [field, request[field]!])))
  if (panCard) {
    oldValues.panCard = user.panCardKey
    newValues.panCard = await storePanCard(userId, panCard)
  }
  const filed = await prisma.$transaction(async (tx) => {
    // One open request per customer: two submits at once are serialised here.
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`correction:${userId}`}, 0))::text`
    if (await tx.correctionRequest.count({ where: { userId, status: 'PENDING' } })) return false
    const created = await tx.correctionRequest.create({
      data: { userId, oldValues, newValues, reason: request.reason, createdAt: now },
      select: { id: true },
    })
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: 'correction.request',
        subjectType: 'User',
        subjectId: userId,
        before: oldValues,
        after: { ...newValues, requestId: created.id, reason: request.reason },
      },
      now,
    )
    return true
  })
  if (!filed) {
    if (newValues.panCard) await deletePanCardFile(newValues.panCard)
    return { ok: false, status: 409, message: 'You already have a correction request waiting for our team.' }
  }
  return { ok: true, message: 'Your correction request is sent. Our team will check it and write to you.' }
}

/** The storage key of the PAN card image a request proposes, if it does. */
export function proposedPanCardOf(row: { newValues: unknown }): string | null {
  const key = (row.newValues as FieldValues).panCard
  return typeof key === 'string' ? key : null
}

async function deletePanCardFile(key: string): Promise<void> {
  try {
    await getFileStorage().delete(key)
  } catch (error) {
    log.error({ err: error }, `Could not delete the PAN card image ${key} of a correction request`)
  }
}

/** What the customer's KYC page shows: the details we hold and the KRA's last answer. */
export function kycDetailsOf(userId: string) {
  return prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: { ...kraRecordSelect, pan: true, kycStatus: true, kycCheckedAt: true },
  })
}

export async function correctionRequestsOf(userId: string) {
  const rows = await prisma.correctionRequest.findMany({ where: { userId }, orderBy: { createdAt: 'desc' } })
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    reason: row.reason,
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    changes: [
      ...CORRECTABLE_FIELDS.flatMap((field) => {
        const newValues = openPanIn(row.newValues as FieldValues) as CorrectionValues
        const oldValues = openPanIn(row.oldValues as FieldValues)
        return field in newValues
          ? [{ field: field as CorrectionChangeField, from: oldValues[field] ?? null, to: newValues[field]! }]
          : []
      }),
      ...(proposedPanCardOf(row) ? [{ field: 'panCard' as const, from: 'the image we hold', to: 'a new image' }] : []),
    ],
  }))
}

/**
 * The admin's decision. Approval asks the KRA for the new PAN and date of birth first: when it does
 * not answer, nothing changes (503). Then, in one transaction with the request still pending,
 * the profile takes the new values and the KRA's answer, and the audit log records old and new.
 */
export async function decideCorrectionRequest(
  actorId: string,
  userId: string,
  requestId: string,
  decision: 'approve' | 'reject',
  { reason = null, now = new Date() }: { reason?: string | null; now?: Date } = {},
): Promise<CorrectionOutcome> {
  const rejectionReason = reason?.trim() || null
  if (decision === 'reject' && !rejectionReason)
    return { ok: false, status: 400, message: 'Say why you reject it: the customer is sent the reason.' }
  const request = await prisma.correctionRequest.findFirst({ where: { id: requestId, userId, status: 'PENDING' } })
  if (!request) return { ok: false, status: 404, message: 'There is no such request waiting.' }
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
  const newValues = openPanIn(request.newValues as FieldValues) as CorrectionValues
  const newPanCard = proposedPanCardOf(request)
  const next = {
    ...currentValues(user),
    ...Object.fromEntries(CORRECTABLE_FIELDS.filter((field) => field in newValues).map((f) => [f, newValues[f]])),
  }
  let kyc: Awaited<ReturnType<typeof checkKyc>> | undefined
  if (decision === 'approve') {
    try {
      kyc = await checkKyc({ pan: next.pan!, dob: next.dob!, name: next.name! })
    } catch (error) {
      if (!(error instanceof KycUnavailableError)) throw error
      return { ok: false, status: 503, message: `${KYC_UNAVAILABLE_MESSAGE} The request is still waiting.` }
    }
  }
  let outcome: CorrectionOutcome
  try {
    outcome = await prisma.$transaction(async (tx) => {
      const decided = await tx.correctionRequest.updateMany({
        where: { id: requestId, status: 'PENDING' },
        data: { status: decision === 'approve' ? 'APPROVED' : 'REJECTED', decidedBy: actorId, decidedAt: now },
      })
      if (decided.count !== 1)
        return { ok: false as const, status: 409, message: 'Another admin decided this request.' }
      if (kyc) {
        await tx.user.update({
          where: { id: userId },
          data: {
            name: next.name,
            pan: next.pan,
            dateOfBirth: new Date(`${next.dob}T00:00:00Z`),
            ...(newPanCard ? { panCardKey: newPanCard } : {}),
            ...kycColumns(kyc, now),
          },
        })
        // Never one's own family member.
        await tx.familyMember.deleteMany({ where: { userId, pan: next.pan! } })
      }
      await recordAudit(
        tx,
        {
          actorId,
          action: decision === 'approve' ? 'correction.approve' : 'correction.reject',
          subjectType: 'User',
          subjectId: userId,
          before: request.oldValues as Prisma.InputJsonValue,
          after: {
            ...(request.newValues as Record<string, string>),
            requestId,
            ...(kyc ? { kycStatus: kyc.status, kycReference: kyc.reference } : {}),
            ...(rejectionReason ? { reason: rejectionReason } : {}),
          },
        },
        now,
      )
      return {
        ok: true as const,
        message:
          decision === 'approve'
            ? `Correction approved; the KRA answered ${kyc!.status.toLowerCase().replace('_', ' ')}.`
            : 'Correction rejected.',
      }
    })
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
      return { ok: false, status: 409, message: panTakenMessage(businessDetails.supportEmail) }
    throw error
  }
  if (outcome.ok && newPanCard) {
    // The card replaced on approval, or the one refused: its file goes, as the wizard's re-upload
    // does (the audit entry keeps both keys; record erasure deletes only the current card).
    const unused = decision === 'approve' ? (request.oldValues as FieldValues).panCard : newPanCard
    if (unused) await deletePanCardFile(unused)
  }
  if (outcome.ok) {
    const oldValues = openPanIn(request.oldValues as FieldValues)
    await notifyCorrectionDecided(userId, {
      approved: decision === 'approve',
      changes: [
        ...CORRECTABLE_FIELDS.filter((field) => field in newValues).map((field) => ({
          label: CORRECTION_FIELD_LABELS[field],
          from: field === 'pan' ? maskPan(oldValues.pan ?? null) : (oldValues[field] ?? null),
          to: field === 'pan' ? maskPan(newValues.pan!) : newValues[field]!,
        })),
        ...(newPanCard
          ? [{ label: CORRECTION_CHANGE_LABELS.panCard, from: 'the image we held', to: 'a new image' }]
          : []),
      ],
      kycStatusLabel: kyc ? KYC_STATUS_LABELS[kyc.status] : null,
      reason: rejectionReason,
    })
  }
  return outcome
}
