import { createHash } from 'node:crypto'
import { calendarDateOf, formatIndiaDate, formatIndiaDateTime, indiaIsoDate, indiaMidnight } from '~/domain/dates'
import {
  accreditationGap,
  accreditedOptInText,
  accreditedOptInVersion,
  feeCapApplies,
  type FeeCapExemption,
} from '~/domain/fee-cap'
import type { AcceptanceChannel } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { feeCapStandingOf } from '../payments/purchase-limits.server'

// An accredited investor's exemption from the fee cap (docs/regulatory.md, "Family fee cap"): the
// admin records the certificate's number and last valid day on the customer's page
// (setFeeCapExemption); the customer opts in on /account/accredited-investor, recorded as an
// acceptance of the statement naming that certificate. Only both together, before the last valid
// day has passed, take the customer outside the cap (feeCapApplies).

type AccreditationRow = {
  feeCapExemption: FeeCapExemption | null
  accreditationCertificate: string | null
  accreditationValidUntil: Date | null
  accreditationOptInId: string | null
}

const accreditationSelect = {
  feeCapExemption: true,
  accreditationCertificate: true,
  accreditationValidUntil: true,
  accreditationOptInId: true,
} as const

export const OPT_IN_NOT_CONFIRMED_MESSAGE = 'Tick the box to confirm that you choose this.'
export const NO_CERTIFICATE_MESSAGE =
  'We have no accreditation certificate of yours on record. If you are an accredited investor, send us your certificate first.'
export const OPT_IN_TEXT_CHANGED_MESSAGE =
  'The statement has changed since you opened this page. Read it again and confirm.'

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

async function businessName(): Promise<string> {
  const { businessDetails } = await import('../business.server')
  return businessDetails.name
}

/** What the customer's page shows: the certificate on record, the statement to confirm, and where they stand. */
export type Accreditation = {
  certificate: string
  validUntil: string
  expired: boolean
  optedInAt: string | null
  statement: string
  statementSha256: string
  feeCapApplies: boolean
}

function certificateOf(row: AccreditationRow): { certificate: string; validUntil: string } | null {
  if (row.feeCapExemption !== 'ACCREDITED_INVESTOR' || !row.accreditationCertificate || !row.accreditationValidUntil)
    return null
  return { certificate: row.accreditationCertificate, validUntil: calendarDateOf(row.accreditationValidUntil) }
}

async function optedInAt(row: AccreditationRow): Promise<Date | null> {
  if (!row.accreditationOptInId) return null
  const acceptance = await prisma.acceptance.findUnique({
    where: { id: row.accreditationOptInId },
    select: { acceptedAt: true },
  })
  return acceptance?.acceptedAt ?? null
}

/** The customer's accreditation as their page shows it; null when no certificate is on record. */
export async function accreditationOf(userId: string, now: Date): Promise<Accreditation | null> {
  const row = await prisma.user.findUnique({ where: { id: userId }, select: accreditationSelect })
  const held = row ? certificateOf(row) : null
  if (!row || !held) return null
  const statement = accreditedOptInText({ ...held, business: await businessName() })
  const at = await optedInAt(row)
  return {
    certificate: held.certificate,
    validUntil: formatIndiaDate(indiaMidnight(held.validUntil)),
    expired: indiaIsoDate(now) > held.validUntil,
    optedInAt: at ? formatIndiaDateTime(at) : null,
    statement,
    statementSha256: sha256(statement),
    feeCapApplies: feeCapApplies(feeCapStandingOf(row), now),
  }
}

/** The admin's view of an accredited investor's exemption: certificate, opt-in, and whether the cap applies and why. */
export async function accreditationForAdmin(row: AccreditationRow, now: Date) {
  if (row.feeCapExemption !== 'ACCREDITED_INVESTOR') return null
  const held = certificateOf(row)
  const gap = accreditationGap(feeCapStandingOf(row), now)
  const at = await optedInAt(row)
  return {
    certificate: held?.certificate ?? 'not recorded',
    validUntil: held ? formatIndiaDate(indiaMidnight(held.validUntil)) : 'not recorded',
    optedIn: at ? formatIndiaDateTime(at) : null,
    standing: gap ? `The fee cap applies: ${gap}.` : 'Outside the fee cap until the certificate expires.',
  }
}

export type OptInOutcome = { ok: true; message: string } | { ok: false; status: 400 | 409; message: string }

/**
 * The customer's own opt-in to be treated as an accredited investor, for the certificate on record:
 * recorded as an acceptance (kind ACCREDITED_INVESTOR_OPT_IN) of the statement they were shown
 * (`shownSha256`; refused when it is no longer the statement, as the certificate changed), named on
 * the user's row and audited, in one transaction under the row's lock.
 */
export async function optInAsAccreditedInvestor(
  userId: string,
  { confirmed, shownSha256 }: { confirmed: boolean; shownSha256: string },
  origin: { ip: string | null; userAgent: string | null; channel: AcceptanceChannel },
  now = new Date(),
): Promise<OptInOutcome> {
  if (!confirmed) return { ok: false, status: 400, message: OPT_IN_NOT_CONFIRMED_MESSAGE }
  const business = await businessName()
  return prisma.$transaction(async (tx): Promise<OptInOutcome> => {
    await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`
    const row = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: accreditationSelect })
    const held = certificateOf(row)
    if (!held) return { ok: false, status: 409, message: NO_CERTIFICATE_MESSAGE }
    if (indiaIsoDate(now) > held.validUntil)
      return {
        ok: false,
        status: 409,
        message: `Your accreditation certificate's last valid day was ${formatIndiaDate(indiaMidnight(held.validUntil))}: the fee cap applies. Send us your new certificate.`,
      }
    if (row.accreditationOptInId) return { ok: true, message: 'You have already chosen this.' }
    const statementSha256 = sha256(accreditedOptInText({ ...held, business }))
    if (statementSha256 !== shownSha256) return { ok: false, status: 409, message: OPT_IN_TEXT_CHANGED_MESSAGE }
    const acceptance = await tx.acceptance.create({
      data: {
        userId,
        kind: 'ACCREDITED_INVESTOR_OPT_IN',
        version: accreditedOptInVersion(statementSha256),
        textSha256: statementSha256,
        acceptedAt: now,
        ip: origin.ip,
        userAgent: origin.userAgent,
        channel: origin.channel,
      },
      select: { id: true },
    })
    await tx.user.update({ where: { id: userId }, data: { accreditationOptInId: acceptance.id } })
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: 'customer.accredited-investor.opt-in',
        subjectType: 'User',
        subjectId: userId,
        before: { optInId: null },
        after: { optInId: acceptance.id, certificate: held.certificate, validUntil: held.validUntil, statementSha256 },
      },
      now,
    )
    return {
      ok: true,
      message: `Recorded: you are treated as an accredited investor until ${formatIndiaDate(indiaMidnight(held.validUntil))}.`,
    }
  })
}

/** The customer withdraws the opt-in: the fee cap applies again from now. Audited. */
export async function withdrawAccreditedOptIn(userId: string, now = new Date()): Promise<OptInOutcome> {
  return prisma.$transaction(async (tx): Promise<OptInOutcome> => {
    await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`
    const row = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { accreditationOptInId: true } })
    if (!row.accreditationOptInId) return { ok: true, message: 'The fee cap applies to you.' }
    await tx.user.update({ where: { id: userId }, data: { accreditationOptInId: null } })
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: 'customer.accredited-investor.withdraw',
        subjectType: 'User',
        subjectId: userId,
        before: { optInId: row.accreditationOptInId },
        after: { optInId: null },
      },
      now,
    )
    return { ok: true, message: 'Withdrawn: the fee cap applies to you again.' }
  })
}
