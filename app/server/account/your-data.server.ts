import { calendarDateOf } from '~/domain/dates'
import { readCartSnapshot } from '~/domain/cart'
import { dataRecipientList } from '~/content/legal/privacy-policy'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { acceptanceHistory } from './acceptances.server'
import { correctionRequestsOf } from './corrections.server'
import { sentMessagesOf } from '../messaging/message-archive.server'
import { researchChannelsOf } from '../research/channels.server'
import { customerRefundOf, customerRefundSelect } from '../payments/refunds/customer-refunds.server'

// "Your data" (docs/regulatory.md, The customer's data; DPDP Act 2023 s.11, the right to a summary of one's personal
// data): everything we hold about a customer, for /account (which masks the PAN) and for the download at
// /account/data.json (which carries it whole: it is the customer's own). The PAN card image is its own download, at
// /details/pan-card; the JSON names that address.

const iso = (instant: Date | null) => (instant ? instant.toISOString() : null)
const day = (instant: Date | null) => (instant ? instant.toISOString().slice(0, 10) : null)

type RollEntryWithDeliveries<Delivery> = { item: { title: string }; deliveries: Delivery[] }

/** Every delivery on a customer's roll with its item's title, newest queued first (then by id). */
function newestDeliveriesFirst<Delivery extends { id: string; queuedAt: Date }>(
  roll: RollEntryWithDeliveries<Delivery>[],
): (Delivery & { title: string })[] {
  return roll
    .flatMap(({ item, deliveries }) => deliveries.map((delivery) => ({ ...delivery, title: item.title })))
    .sort((a, b) => b.queuedAt.getTime() - a.queuedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The customer's data as the download carries it (dates ISO 8601, amounts in paise); null when no such user. */
export async function customerData(userId: string, now = new Date()) {
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: {
      phone: true,
      name: true,
      email: true,
      dateOfBirth: true,
      pan: true,
      panCardKey: true,
      kycStatus: true,
      kycCheckedAt: true,
      kycReference: true,
      kycNameOnRecord: true,
      kycDobOnRecord: true,
      kycRecordReview: true,
      kycRecordReviewedAt: true,
      createdAt: true,
      familyMembers: { orderBy: { createdAt: 'asc' }, select: { pan: true, relation: true, createdAt: true } },
      dataNominee: {
        select: { name: true, relationship: true, phone: true, email: true, createdAt: true, updatedAt: true },
      },
      payments: {
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: {
          id: true,
          method: true,
          status: true,
          amountPaise: true,
          currency: true,
          cart: true,
          utr: true,
          payerAccountName: true,
          createdAt: true,
          paidAt: true,
          rejectedReason: true,
        },
      },
      ledgerEntries: {
        orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
        select: {
          kind: true,
          documentNumber: true,
          occurredAt: true,
          amountPaise: true,
          gstPaise: true,
          paymentId: true,
        },
      },
      subscriptions: {
        orderBy: [{ startsAt: 'desc' }, { id: 'desc' }],
        select: {
          service: { select: { name: true } },
          startsAt: true,
          endsAt: true,
          endedAt: true,
          paymentId: true,
          grantReason: true,
        },
      },
      refunds: {
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: customerRefundSelect,
      },
      // Their deliveries through their roll: a delivery row's customer is its roll row's (decision 059).
      researchRoll: {
        select: {
          item: { select: { title: true } },
          deliveries: {
            select: {
              id: true,
              channel: true,
              status: true,
              queuedAt: true,
              sentAt: true,
              deliveredAt: true,
              failedAt: true,
              lastError: true,
            },
          },
        },
      },
      researchReads: {
        orderBy: [{ readAt: 'desc' }, { itemId: 'asc' }],
        select: { readAt: true, item: { select: { title: true } } },
      },
      sessions: { orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], select: { createdAt: true, expiresAt: true } },
    },
  })
  if (!user) return null
  const [acceptances, corrections, channels, messages] = await Promise.all([
    acceptanceHistory(userId),
    correctionRequestsOf(userId),
    researchChannelsOf(userId),
    sentMessagesOf(userId),
  ])
  return {
    exportedAt: now.toISOString(),
    // Who receives personal data from us (DPDP Act s.11(1)(b)), by the names the business details configure, as the
    // Privacy Policy names them.
    dataRecipients: [
      ...dataRecipientList(businessDetails.dataRecipients),
      {
        name: 'SEBI, the RAASB (BSE), auditors, courts and other authorities',
        role: 'when the law requires it',
      },
    ],
    profile: {
      phone: user.phone,
      name: user.name,
      email: user.email,
      dateOfBirth: day(user.dateOfBirth),
      pan: user.pan,
      panCardImage: user.panCardKey ? '/details/pan-card' : null,
      kyc: {
        status: user.kycStatus,
        checkedAt: iso(user.kycCheckedAt),
        reference: user.kycReference,
        nameOnRecord: user.kycNameOnRecord,
        dateOfBirthOnRecord: user.kycDobOnRecord ? calendarDateOf(user.kycDobOnRecord) : null,
        recordDecision: user.kycRecordReview,
        recordDecidedAt: iso(user.kycRecordReviewedAt),
      },
      accountCreatedAt: iso(user.createdAt),
    },
    familyMembers: user.familyMembers.map((member) => ({
      pan: member.pan,
      relation: member.relation,
      addedAt: iso(member.createdAt),
    })),
    dataNominee: user.dataNominee
      ? {
          name: user.dataNominee.name,
          relationship: user.dataNominee.relationship,
          phone: user.dataNominee.phone,
          email: user.dataNominee.email,
          namedAt: iso(user.dataNominee.createdAt),
          changedAt: iso(user.dataNominee.updatedAt),
        }
      : null,
    acceptances: acceptances.map((row) => ({
      document: row.kind,
      version: row.version,
      textSha256: row.textSha256,
      acceptedAt: iso(row.acceptedAt),
      ip: row.ip,
      userAgent: row.userAgent,
      channel: row.channel,
    })),
    payments: user.payments.map((payment) => ({
      id: payment.id,
      method: payment.method,
      status: payment.status,
      amountPaise: payment.amountPaise,
      currency: payment.currency,
      services: readCartSnapshot(payment.cart).map((item) => item.name),
      bankReference: payment.utr,
      payerAccountName: payment.payerAccountName,
      createdAt: iso(payment.createdAt),
      paidAt: iso(payment.paidAt),
      rejectedReason: payment.rejectedReason,
    })),
    invoices: user.ledgerEntries.map((entry) => ({
      number: entry.documentNumber,
      kind: entry.kind === 'PAYMENT' ? 'INVOICE' : 'CREDIT_NOTE',
      issuedAt: iso(entry.occurredAt),
      amountPaise: entry.amountPaise,
      gstPaise: entry.gstPaise,
      paymentId: entry.paymentId,
    })),
    subscriptions: user.subscriptions.map((row) => ({
      service: row.service.name,
      startsAt: iso(row.startsAt),
      endsAt: iso(row.endsAt),
      endedEarlyAt: iso(row.endedAt),
      paymentId: row.paymentId,
      grantReason: row.grantReason,
    })),
    refunds: user.refunds.map((row) => {
      const refund = customerRefundOf(row)
      return {
        service: refund.serviceName,
        amountPaise: refund.amountPaise,
        status: refund.status,
        // In words, as /subscriptions shows it: requested, paid on a date, or failed and being retried.
        state: refund.label,
        next: refund.next,
        reason: row.reason,
        createdAt: iso(refund.createdAt),
        paidAt: iso(refund.processedAt),
        paymentId: row.paymentId,
      }
    }),
    // Each research item sent to them, by channel (docs/research.md, "Delivery").
    researchDeliveries: newestDeliveriesFirst(user.researchRoll).map((row) => ({
      item: row.title,
      channel: row.channel,
      status: row.status,
      queuedAt: iso(row.queuedAt),
      sentAt: iso(row.sentAt),
      deliveredAt: iso(row.deliveredAt),
      failedAt: iso(row.failedAt),
      failureReason: row.status === 'FAILED' ? row.lastError : null,
    })),
    // Where their research goes (docs/research.md, "Channels"): the defaults when they chose nothing.
    researchChannels: {
      email: channels.email.chosen,
      sms: channels.sms.chosen,
      telegram: channels.telegram.chosen,
      telegramLinkedAt: channels.telegram.linkedAt,
    },
    // Every message we sent them, newest first (docs/regulatory.md, "Records"); a one-time code masked.
    messagesSent: messages.map((message) => ({
      sentAt: iso(message.sentAt),
      channel: message.channel,
      to: message.recipient,
      template: message.template,
      subject: message.subject,
      body: message.body,
    })),
    // When they first opened each research item (the unread marks on /research, decision 040).
    researchReads: user.researchReads.map((row) => ({ item: row.item.title, firstReadAt: iso(row.readAt) })),
    signIns: user.sessions.map((session) => ({
      signedInAt: iso(session.createdAt),
      expiresAt: iso(session.expiresAt),
      active: session.expiresAt > now,
    })),
    // Through the corrections module, which opens the PANs these requests store encrypted.
    correctionRequests: corrections.map((row) => ({
      status: row.status,
      requestedAt: iso(row.createdAt),
      decidedAt: iso(row.decidedAt),
      changes: row.changes,
      reason: row.reason,
    })),
  }
}

export type CustomerData = NonNullable<Awaited<ReturnType<typeof customerData>>>
