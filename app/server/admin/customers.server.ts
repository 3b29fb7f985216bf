import {
  CUSTOMER_SEARCH_LIMIT,
  CUSTOMER_SEARCH_MIN_LENGTH,
  type FeeCapExemptionChange,
  type GrantSubscription,
} from '~/domain/admin'
import { readCartSnapshot } from '~/domain/cart'
import { formatIndiaDate, indiaIsoDate, indiaMidnight } from '~/domain/dates'
import { FEE_CAP_EXEMPTION_LABELS } from '~/domain/fee-cap'
import { profileStep } from '~/domain/profile'
import { isUuid } from '~/domain/uuid'
import type { Page, PageRequest } from '~/domain/keyset'
import { Prisma } from '~/generated/prisma/client'
import { proposedPanCardOf } from '../account/corrections.server'
import { recordAudit } from '../audit.server'
import { panKeys, prisma } from '../db.server'
import { keysetSql, readKeysetPage } from '../keyset.server'
import { decryptPan, panLookupHash } from '../kyc/pan-crypto.server'
import { kraRecordSelect } from '../kyc/kra-record.server'
import { notifyAccreditationRecorded, notifySubscriptionGranted } from '../messaging/customer-notices.server'
import { grantSubscription } from '../payments/subscriptions.server'

const listSelect = { id: true, name: true, phone: true, email: true, pan: true, role: true } as const
export type CustomerListing = Prisma.UserGetPayload<{ select: typeof listSelect }>

const PAN_PATTERN = /^[A-Z]{5}\d{4}[A-Z]$/

/** Postgres LIKE reads % and _ as wildcards and \ as its escape: a query means those characters themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&')

/**
 * Which column a search reads, and how: a full phone number (+ and country code, or 10 digits of an
 * Indian mobile) or a PAN exactly (by its lookup hash: PANs are stored encrypted), through their unique indexes; some digits as part of a phone,
 * other text as part of a name or e-mail (case-insensitive), through the trigram indexes.
 */
export function customerSearchCondition(query: string): Prisma.Sql | null {
  const text = query.trim()
  if (text.length < CUSTOMER_SEARCH_MIN_LENGTH) return null
  const digits = text.replace(/[\s+-]/g, '')
  if (/^\d+$/.test(digits)) {
    if (text.startsWith('+') && digits.length >= 7) return Prisma.sql`u.phone = ${`+${digits}`}`
    if (digits.length === 10) return Prisma.sql`u.phone = ${`+91${digits}`}`
    if (digits.length === 12 && digits.startsWith('91')) return Prisma.sql`u.phone = ${`+${digits}`}`
    return Prisma.sql`u.phone LIKE ${`%${digits}%`}`
  }
  if (PAN_PATTERN.test(text.toUpperCase()))
    return Prisma.sql`u.pan_hash = ${panLookupHash(panKeys, text.toUpperCase())}`
  const pattern = `%${likeLiteral(text)}%`
  return Prisma.sql`(u.name ILIKE ${pattern} OR u.email ILIKE ${pattern})`
}

/** The query of one page of searchCustomers (exported for the EXPLAIN test). */
export function customerSearchSql(condition: Prisma.Sql, page: PageRequest, take: number): Prisma.Sql {
  const keyset = keysetSql(page, 'u.created_at', 'u.id', 'uuid')
  return Prisma.sql`
    SELECT u.id::text, u.name, u.phone, u.email, u.pan_encrypted AS pan, u.role::text, u.created_at AS "createdAt"
    FROM users u
    WHERE ${condition} AND ${keyset.where}
    ${keyset.orderBy}
    LIMIT ${take}`
}

/**
 * Customers matching the query (see customerSearchCondition), newest first, one keyset page at a
 * time in (created_at, id) order.
 */
export async function searchCustomers(
  query: string,
  page: PageRequest = null,
  size = CUSTOMER_SEARCH_LIMIT,
): Promise<Page<CustomerListing & { createdAt: Date }>> {
  const condition = customerSearchCondition(query)
  if (!condition) return { rows: [], next: null, previous: null }
  return readKeysetPage(
    page,
    size,
    async (at, take) =>
      // Raw SQL passes by the Prisma extension that decrypts PANs: decrypted here.
      (await prisma.$queryRaw<(CustomerListing & { createdAt: Date })[]>(customerSearchSql(condition, at, take))).map(
        (row) => ({ ...row, pan: row.pan && decryptPan(panKeys, row.pan) }),
      ),
    (row) => ({ at: row.createdAt, id: row.id }),
  )
}

/** One customer as the team needs them: profile, KYC status, payments and subscriptions. */
export async function customerForAdmin(userId: string) {
  if (!isUuid(userId)) return null
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: {
      ...listSelect,
      panCardKey: true,
      agreementAcceptedAt: true,
      agreementVersion: true,
      feeCapExemption: true,
      feeCapExemptionReason: true,
      accreditationCertificate: true,
      accreditationValidUntil: true,
      accreditationOptInId: true,
      kycStatus: true,
      kycCheckedAt: true,
      kycReference: true,
      ...kraRecordSelect,
      kycRecordReviewedAt: true,
      closedAt: true,
      familyMembers: { orderBy: [{ createdAt: 'asc' }, { pan: 'asc' }], select: { pan: true, relation: true } },
      dataNominee: { select: { name: true, relationship: true, phone: true, email: true } },
      payments: {
        orderBy: { createdAt: 'desc' },
        select: {
          id: true,
          method: true,
          status: true,
          amountPaise: true,
          cart: true,
          utr: true,
          createdAt: true,
          paidAt: true,
          rejectedReason: true,
          ledgerEntries: { orderBy: { id: 'asc' }, select: { documentNumber: true } },
        },
      },
      subscriptions: {
        orderBy: { endsAt: 'desc' },
        select: {
          id: true,
          startsAt: true,
          endsAt: true,
          paymentId: true,
          grantReason: true,
          service: { select: { id: true, name: true } },
        },
      },
    },
  })
  if (!user) return null
  return {
    ...user,
    profileStep: profileStep(user),
    payments: user.payments.map(({ cart, ...payment }) => ({ ...payment, cart: readCartSnapshot(cart) })),
  }
}

export type CustomerForAdmin = NonNullable<Awaited<ReturnType<typeof customerForAdmin>>>

/**
 * The storage key of a customer's PAN card image, for the admin route that serves it; with
 * `correctionId`, the new image that correction request proposes. Every view is audited: the
 * image is identity data.
 */
export async function panCardKeyForAdmin(
  adminId: string,
  userId: string,
  correctionId: string | null = null,
): Promise<string | null> {
  if (!isUuid(userId) || (correctionId !== null && !isUuid(correctionId))) return null
  let key: string | null
  if (correctionId) {
    const request = await prisma.correctionRequest.findFirst({ where: { id: correctionId, userId } })
    key = request ? proposedPanCardOf(request) : null
  } else {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { panCardKey: true } })
    key = user?.panCardKey ?? null
  }
  if (!key) return null
  await prisma.$transaction((tx) =>
    recordAudit(tx, {
      actorId: adminId,
      action: 'customer.pan-card.view',
      subjectType: 'User',
      subjectId: userId,
      before: null,
      after: correctionId ? { correctionId } : null,
    }),
  )
  return key
}

export type FeeCapExemptionOutcome = { ok: true; message: string } | { ok: false; status: 400 | 404; message: string }

/**
 * Marks a customer as outside SEBI's family fee cap (an accredited investor, with the certificate's
 * number and last valid day, or a non-individual client), with the reason, or removes the mark;
 * audited with before and after in the same transaction, the user's row locked so two admins'
 * changes come one after the other. Any change clears the customer's opt-in as an accredited
 * investor: it was given for the certificate then on record (app/server/account/accreditation.server.ts).
 */
export async function setFeeCapExemption(
  actorId: string,
  userId: string,
  change: FeeCapExemptionChange,
  now = new Date(),
): Promise<FeeCapExemptionOutcome> {
  if (!isUuid(userId)) return { ok: false, status: 404, message: 'That customer does not exist.' }
  const accreditation =
    change.intent === 'fee-cap-exempt' && change.exemption === 'ACCREDITED_INVESTOR'
      ? { certificate: change.certificate ?? null, validUntil: change.validUntil ?? null }
      : { certificate: null, validUntil: null }
  if (accreditation.validUntil && accreditation.validUntil < indiaIsoDate(now))
    return {
      ok: false,
      status: 400,
      message: `The certificate's last valid day, ${formatIndiaDate(indiaMidnight(accreditation.validUntil))}, has passed: the fee cap applies.`,
    }
  const after =
    change.intent === 'fee-cap-exempt'
      ? { exemption: change.exemption, reason: change.reason, ...accreditation, optInId: null }
      : { exemption: null, reason: null, certificate: null, validUntil: null, optInId: null }
  const found = await prisma.$transaction(async (tx) => {
    const [user] = await tx.$queryRaw<
      {
        exemption: string | null
        reason: string | null
        certificate: string | null
        validUntil: string | null
        optInId: string | null
      }[]
    >`
      SELECT "fee_cap_exemption"::text AS "exemption", "fee_cap_exemption_reason" AS "reason",
             "accreditation_certificate" AS "certificate", "accreditation_valid_until"::text AS "validUntil",
             "accreditation_opt_in_id"::text AS "optInId"
      FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`
    if (!user) return false
    await tx.user.update({
      where: { id: userId },
      data: {
        feeCapExemption: after.exemption,
        feeCapExemptionReason: after.reason,
        accreditationCertificate: after.certificate,
        accreditationValidUntil: after.validUntil ? new Date(`${after.validUntil}T00:00:00Z`) : null,
        accreditationOptInId: null,
      },
    })
    await recordAudit(
      tx,
      {
        actorId,
        action:
          change.intent === 'fee-cap-exempt' ? 'customer.fee-cap-exemption.set' : 'customer.fee-cap-exemption.remove',
        subjectType: 'User',
        subjectId: userId,
        before: user,
        after,
      },
      now,
    )
    return true
  })
  if (!found) return { ok: false, status: 404, message: 'That customer does not exist.' }
  if (after.certificate && after.validUntil)
    await notifyAccreditationRecorded(userId, {
      certificate: after.certificate,
      validUntil: formatIndiaDate(indiaMidnight(after.validUntil)),
    })
  return {
    ok: true,
    message:
      change.intent !== 'fee-cap-exempt'
        ? 'The fee cap applies to this customer again.'
        : accreditation.certificate
          ? `Marked exempt from the fee cap: ${FEE_CAP_EXEMPTION_LABELS[change.exemption]}. The cap still applies until the customer opts in on their account page.`
          : `Marked exempt from the fee cap: ${FEE_CAP_EXEMPTION_LABELS[change.exemption]}.`,
  }
}

export type GrantOutcome = { ok: true; message: string } | { ok: false; status: 404; message: string }

/**
 * Gives the customer a subscription without a payment, audited with the reason in the same
 * transaction, then tells them by e-mail. It chains after a running subscription to the service.
 */
export async function grantSubscriptionAsAdmin(
  actorId: string,
  userId: string,
  grant: GrantSubscription,
  now = new Date(),
): Promise<GrantOutcome> {
  const [user, service] = await Promise.all([
    isUuid(userId) ? prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } }) : null,
    prisma.service.findUnique({ where: { id: grant.serviceId }, select: { name: true } }),
  ])
  if (!user) return { ok: false, status: 404, message: 'That customer does not exist.' }
  if (!service) return { ok: false, status: 404, message: 'That service does not exist.' }
  const granted = await grantSubscription(
    {
      userId,
      serviceId: grant.serviceId,
      durationDays: grant.durationDays,
      reason: grant.reason,
      grantedById: actorId,
      now,
    },
    (tx, created) =>
      recordAudit(
        tx,
        {
          actorId,
          action: 'subscription.grant',
          subjectType: 'User',
          subjectId: userId,
          before: null,
          after: {
            subscriptionId: created.id,
            serviceId: grant.serviceId,
            service: service.name,
            durationDays: grant.durationDays,
            startsAt: created.startsAt.toISOString(),
            endsAt: created.endsAt.toISOString(),
            reason: grant.reason,
          },
        },
        now,
      ),
  )
  const endsOn = formatIndiaDate(granted.endsAt)
  await notifySubscriptionGranted({
    user,
    serviceName: service.name,
    durationDays: grant.durationDays,
    endsAt: granted.endsAt,
    reason: grant.reason,
  })
  return { ok: true, message: `Granted ${grant.durationDays} days of ${service.name}, ending on ${endsOn}.` }
}

/** The services a grant can be for: every service, on sale or not. */
export function grantableServices() {
  return prisma.service.findMany({
    orderBy: [{ active: 'desc' }, { sortOrder: 'asc' }, { name: 'asc' }],
    select: { id: true, name: true, active: true, durationDays: true },
  })
}

/** What an admin looked at, for the trail of views on the customer's page (DPDP: who saw the data, when). */
export const ADMIN_VIEW_ACTIONS = {
  'customer.page.view': "Customer's page",
  'customer.pan-card.view': 'PAN card image',
} as const
type AdminViewAction = keyof typeof ADMIN_VIEW_ACTIONS
/** The newest views shown on the customer's page; the audit log keeps every one. */
export const ADMIN_VIEWS_SHOWN = 100

/** Records that `adminId` opened the customer's page (called by its loader, for a customer that exists). */
export async function recordCustomerPageView(adminId: string, userId: string, now = new Date()): Promise<void> {
  await prisma.$transaction((tx) =>
    recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'customer.page.view',
        subjectType: 'User',
        subjectId: userId,
        before: null,
        after: null,
      },
      now,
    ),
  )
}

/** The admins' views of a customer's page and PAN card image, newest first, with who looked: never shown to the customer. */
export async function adminViewsOf(userId: string, take = ADMIN_VIEWS_SHOWN) {
  const [entries, total] = await Promise.all([
    prisma.auditLog.findMany({
      where: { subjectType: 'User', subjectId: userId, action: { in: Object.keys(ADMIN_VIEW_ACTIONS) } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take,
      select: { id: true, action: true, actorId: true, createdAt: true },
    }),
    prisma.auditLog.count({
      where: { subjectType: 'User', subjectId: userId, action: { in: Object.keys(ADMIN_VIEW_ACTIONS) } },
    }),
  ])
  const actors = await prisma.user.findMany({
    where: { id: { in: [...new Set(entries.map((entry) => entry.actorId))] } },
    select: { id: true, phone: true, name: true },
  })
  const actorById = new Map(actors.map((actor) => [actor.id, actor]))
  return {
    total,
    views: entries.map((entry) => ({
      id: String(entry.id),
      what: ADMIN_VIEW_ACTIONS[entry.action as AdminViewAction],
      at: entry.createdAt,
      admin: actorById.get(entry.actorId) ?? { id: entry.actorId, phone: null, name: null },
    })),
  }
}
