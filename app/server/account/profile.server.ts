import type { DeclaredFamilyMember } from '~/domain/family-relations'
import { KYC_RECHECK_WINDOW_MS, KYC_RECHECKS_PER_WINDOW, KYC_UNAVAILABLE_MESSAGE } from '~/domain/kyc'
import { panTakenMessage, profileStep, type ProfileDetails } from '~/domain/profile'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { consumeRateLimits, describeWait } from '../rate-limit.server'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { replaceFamilyMembers } from './family-members.server'
import { sealPanIn } from './corrections.server'
import { checkKyc, kycColumns, KycUnavailableError, type KycAnswer } from '../kyc/kra.server'
import { storePanCard, type PanCardUpload } from '../kyc/pan-card-image.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('account')

export type SaveDetailsOutcome =
  | { ok: true; kyc: KycAnswer }
  | { ok: false; field: 'pan'; message: string }
  /** 409: the profile is complete (its KYC details change through a correction request); 503: the KRA did not answer. */
  | { ok: false; field: null; status: 409 | 503; message: string }

export const PAN_CARD_LOCKED_MESSAGE =
  'Your profile is complete, so your PAN card image changes only through a correction request (at /account/corrections).'

export const PROFILE_LOCKED_MESSAGE =
  'Your profile is complete, so your name, PAN and date of birth change only through a correction request (at /account/corrections), and your e-mail address with a code sent to the new address.'

/**
 * Step 1 of the profile: the details and, from the page, the family members' PANs (the API's
 * clients send none: `family` undefined leaves them as they are). The KRA is asked first: when it
 * does not answer, nothing is saved (503). A PAN another account holds is refused by the unique
 * index, so two accounts saving one PAN at once cannot both have it. A complete profile is
 * refused (409): its KYC details change through a correction request (app/server/account/corrections.server.ts).
 */
export async function saveProfileDetails(
  userId: string,
  details: ProfileDetails,
  family?: readonly DeclaredFamilyMember[],
  now = new Date(),
): Promise<SaveDetailsOutcome> {
  const before = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
  if (profileStep(before) === 'complete')
    return { ok: false, field: null, status: 409, message: PROFILE_LOCKED_MESSAGE }
  let kyc: KycAnswer
  try {
    kyc = await checkKyc({ pan: details.pan, dob: details.dob, name: details.name })
  } catch (error) {
    if (!(error instanceof KycUnavailableError)) throw error
    log.warn(`KYC check for user ${userId} failed: ${error.message}`)
    return { ok: false, field: null, status: 503, message: KYC_UNAVAILABLE_MESSAGE }
  }
  try {
    const saved = await prisma.$transaction(async (tx) => {
      // Only while the agreement is not accepted: a profile completed meanwhile is not changed.
      const updated = await tx.user.updateMany({
        where: { id: userId, agreementAcceptedAt: null },
        data: {
          name: details.name,
          email: details.email,
          dateOfBirth: new Date(`${details.dob}T00:00:00Z`),
          pan: details.pan,
          ...kycColumns(kyc, now),
        },
      })
      if (updated.count !== 1) return false
      await auditKycDetails(tx, userId, before, details, now)
      if (family) await replaceFamilyMembers(tx, userId, family)
      // Never one's own family member, whichever way the PAN came.
      await tx.familyMember.deleteMany({ where: { userId, pan: details.pan } })
      return true
    })
    if (!saved) return { ok: false, field: null, status: 409, message: PROFILE_LOCKED_MESSAGE }
    return { ok: true, kyc }
  } catch (error) {
    // users.pan is the only unique column this writes (family rows are replaced under the user's lock).
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return { ok: false, field: 'pan', message: panTakenMessage(businessDetails.supportEmail) }
    }
    throw error
  }
}

const isoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : null)

/**
 * The KYC details the wizard changed (name, PAN, date of birth), old and new, in the audit log
 * with the PAN sealed as in correction requests; nothing when they are the ones saved.
 */
async function auditKycDetails(
  tx: Prisma.TransactionClient,
  userId: string,
  before: { name: string | null; pan: string | null; dateOfBirth: Date | null },
  details: ProfileDetails,
  now: Date,
): Promise<void> {
  const saved = { name: before.name, pan: before.pan, dob: isoDate(before.dateOfBirth) }
  const changed = (['name', 'pan', 'dob'] as const).filter((field) => saved[field] !== details[field])
  if (changed.length === 0) return
  await recordAudit(
    tx,
    {
      actorId: userId,
      action: 'profile.details',
      subjectType: 'User',
      subjectId: userId,
      before: sealPanIn(Object.fromEntries(changed.map((field) => [field, saved[field]]))),
      after: sealPanIn(Object.fromEntries(changed.map((field) => [field, details[field]]))),
    },
    now,
  )
}

/** Stores a KRA's answer on the user (the profile's own saves do this with the details they save). */
export async function recordKycAnswer(userId: string, kyc: KycAnswer, now = new Date()): Promise<void> {
  await prisma.user.update({ where: { id: userId }, data: kycColumns(kyc, now) })
}

export type RecheckKycOutcome =
  | { ok: true; kyc: KycAnswer }
  /** 409: no details saved yet; 429: too many checks just now; 503: the KRA did not answer. */
  | { ok: false; status: 409 | 429 | 503; message: string }

/**
 * Asks the KRA again for the saved PAN and date of birth ("Check my KYC again", in the wizard and
 * on the KYC details page), at most KYC_RECHECKS_PER_WINDOW times in KYC_RECHECK_WINDOW_MS per
 * customer. Each answer is audited (the status before and after), as an approved correction's is.
 */
export async function recheckKyc(userId: string, now = new Date()): Promise<RecheckKycOutcome> {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
  if (!user.pan || !user.dateOfBirth || !user.name)
    return {
      ok: false,
      status: 409,
      message: 'Save your details at step 1 first: they are what the KRA is asked about.',
    }
  const limit = await consumeRateLimits(
    [{ bucket: 'kyc-recheck', key: userId, limit: KYC_RECHECKS_PER_WINDOW, windowMs: KYC_RECHECK_WINDOW_MS }],
    now,
  )
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      message: `You asked the KRA ${KYC_RECHECKS_PER_WINDOW} times in the last hour. Try again in ${describeWait(limit.retryAfterMs)}.`,
    }
  let kyc: KycAnswer
  try {
    kyc = await checkKyc({ pan: user.pan, dob: user.dateOfBirth.toISOString().slice(0, 10), name: user.name })
  } catch (error) {
    if (!(error instanceof KycUnavailableError)) throw error
    log.warn(`KYC check again for user ${userId} failed: ${error.message}`)
    return { ok: false, status: 503, message: KYC_UNAVAILABLE_MESSAGE }
  }
  await prisma.$transaction(async (tx) => {
    // Only for the PAN asked about: details changed meanwhile keep their own answer.
    const updated = await tx.user.updateMany({ where: { id: userId, pan: user.pan }, data: kycColumns(kyc, now) })
    if (updated.count !== 1) return
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: 'kyc.recheck',
        subjectType: 'User',
        subjectId: userId,
        before: { kycStatus: user.kycStatus, kycReference: user.kycReference },
        after: { kycStatus: kyc.status, kycReference: kyc.reference },
      },
      now,
    )
  })
  return { ok: true, kyc }
}

/** The recorded click-accept (agreement.server.ts): when, which version, from where, and a hash of the exact text shown. */
export async function recordAgreementAcceptance(
  userId: string,
  acceptance: { version: string; textSha256: string; ip: string },
  now = new Date(),
): Promise<void> {
  await prisma.user.update({
    where: { id: userId },
    data: {
      agreementAcceptedAt: now,
      agreementVersion: acceptance.version,
      agreementTextSha256: acceptance.textSha256,
      agreementIp: acceptance.ip,
    },
  })
}

/** The PAN card of a profile completed meanwhile: nothing was changed. */
class PanCardLockedError extends Error {
  override name = 'PanCardLockedError'
}

export type SavePanCardOutcome = { ok: true } | { ok: false; status: 409; message: string }

/**
 * Stores the card and points the user at it, audited (old and new key, the image's SHA-256); the
 * replaced file is deleted only once the row says so. Only while the profile is not complete: then
 * the card changes through a correction request, and this answers 409.
 */
export async function savePanCard(
  user: { id: string; panCardKey: string | null },
  upload: PanCardUpload,
  now = new Date(),
): Promise<SavePanCardOutcome> {
  try {
    await storePanCard(user.id, upload, user.panCardKey, {
      recordKey: (key) =>
        prisma.$transaction(async (tx) => {
          // Conditional on the key this upload replaces: of two racing uploads, the later one fails
          // instead of orphaning the other's file; and on the agreement not yet accepted.
          const saved = await tx.user.updateMany({
            where: { id: user.id, panCardKey: user.panCardKey, agreementAcceptedAt: null },
            data: { panCardKey: key },
          })
          if (saved.count !== 1) {
            const current = await tx.user.findUniqueOrThrow({ where: { id: user.id } })
            if (current.agreementAcceptedAt) throw new PanCardLockedError(PAN_CARD_LOCKED_MESSAGE)
            throw new Error('The PAN card changed during this upload; try again')
          }
          await recordAudit(
            tx,
            {
              actorId: user.id,
              action: 'profile.pan-card',
              subjectType: 'User',
              subjectId: user.id,
              before: { panCardKey: user.panCardKey },
              after: { panCardKey: key, sha256: upload.file.sha256 },
            },
            now,
          )
        }),
    })
  } catch (error) {
    if (error instanceof PanCardLockedError) return { ok: false, status: 409, message: error.message }
    throw error
  }
  return { ok: true }
}
