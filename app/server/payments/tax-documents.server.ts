import { maskPan } from '~/domain/pan'
import { personName } from '~/domain/names'
import { readCartSnapshot } from '~/domain/cart'
import { formatIndiaDate } from '~/domain/dates'
import { subscriptionEndsAt } from '~/domain/subscriptions'
import { intraStateSplit, placeOfSupplyText } from '~/domain/gst'
import { DOCUMENT_TITLES, seriesOf, type TaxDocumentView } from '~/domain/tax-documents'
import type { Role } from '~/generated/prisma/client'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'

/**
 * The invoice, receipt or credit note numbered `number`, as its printable page shows it; null when
 * there is none or the viewer may not see it (only its customer and admins may).
 */
export async function taxDocument(viewer: { id: string; role: Role }, number: string): Promise<TaxDocumentView | null> {
  const entry = await prisma.ledgerEntry.findUnique({
    where: { documentNumber: number },
    select: {
      kind: true,
      userId: true,
      amountPaise: true,
      gstPaise: true,
      gstRateBasisPoints: true,
      sellerGstin: true,
      occurredAt: true,
      payment: {
        select: {
          method: true,
          cart: true,
          utr: true,
          payerAccountName: true,
          gatewayPaymentId: true,
          subscriptions: { select: { serviceId: true, startsAt: true } },
          ledgerEntries: { where: { kind: 'PAYMENT' }, select: { documentNumber: true } },
        },
      },
      user: { select: { name: true, phone: true, email: true, pan: true } },
      refund: { select: { subscription: { select: { serviceId: true } } } },
    },
  })
  if (!entry || (entry.userId !== viewer.id && viewer.role !== 'ADMIN')) return null
  const { payment } = entry
  const invoiceNumber = payment.ledgerEntries[0]!.documentNumber
  const startOf = new Map(payment.subscriptions.map((subscription) => [subscription.serviceId, subscription.startsAt]))
  const services = readCartSnapshot(payment.cart)
  const lines =
    entry.kind === 'PAYMENT'
      ? services.map((item) => {
          const startsAt = startOf.get(item.serviceId)
          return {
            description: `${item.name}: research service for ${item.durationDays} days`,
            period: startsAt
              ? `${formatIndiaDate(startsAt)} to ${formatIndiaDate(subscriptionEndsAt(startsAt, item.durationDays))}`
              : null,
            amountPaise: item.pricePaise,
          }
        })
      : [
          {
            description: `Refund of fees for the unexpired period: ${documentServices(
              entry.kind,
              services,
              entry.refund?.subscription?.serviceId,
            )
              .map((item) => item.name)
              .join(', ')}`,
            period: null,
            amountPaise: entry.amountPaise,
          },
        ]
  const series = seriesOf(number) ?? 'RCT'
  return {
    number,
    customerId: entry.userId,
    title: DOCUMENT_TITLES[series],
    issuedOn: formatIndiaDate(entry.occurredAt),
    againstNumber: entry.kind === 'REFUND' ? invoiceNumber : null,
    seller: {
      name: businessDetails.name,
      legalName: businessDetails.gst?.legalName ?? businessDetails.name,
      address: businessDetails.address,
      gstin: entry.sellerGstin,
      sacCode: entry.sellerGstin ? (businessDetails.gst?.sacCode ?? null) : null,
      sebiRegistrationNumber: businessDetails.sebiRegistrationNumber,
      supportEmail: businessDetails.supportEmail,
      supportPhone: businessDetails.supportPhone,
    },
    // Masked: an invoice is printed and forwarded; nothing on it needs the whole PAN.
    buyer: { ...entry.user, name: personName(entry.user.name), pan: maskPan(entry.user.pan) },
    placeOfSupply: entry.sellerGstin ? placeOfSupplyText(entry.sellerGstin) : null,
    lines,
    totalPaise: entry.amountPaise,
    gstPaise: entry.gstPaise,
    ...intraStateSplit(entry.gstPaise),
    gstRateBasisPoints: entry.gstRateBasisPoints,
    paidBy:
      payment.method === 'GATEWAY'
        ? `Paid on the website${payment.gatewayPaymentId ? ` (Razorpay payment ${payment.gatewayPaymentId})` : ''}`
        : `Bank transfer${payment.payerAccountName ? ` from the account of ${payment.payerAccountName}` : ''}${payment.utr ? ` (reference ${payment.utr})` : ''}`,
  }
}

/**
 * What a document is for: an invoice, every service of its payment; a credit note, the one service
 * whose subscription was refunded (or every one, for a payment refunded whole).
 */
function documentServices<Item extends { serviceId: string }>(
  kind: 'PAYMENT' | 'REFUND',
  services: Item[],
  refundedServiceId: string | undefined,
): Item[] {
  if (kind === 'PAYMENT' || !refundedServiceId) return services
  return services.filter((item) => item.serviceId === refundedServiceId)
}

export type CustomerDocument = {
  number: string
  title: string
  issuedOn: string
  amountPaise: number
  gstPaise: number
  services: string
}

/** A customer's invoices (or receipts) and credit notes, newest first. */
export async function customerDocuments(userId: string): Promise<CustomerDocument[]> {
  const entries = await prisma.ledgerEntry.findMany({
    where: { userId },
    orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    select: {
      documentNumber: true,
      occurredAt: true,
      amountPaise: true,
      gstPaise: true,
      kind: true,
      payment: { select: { cart: true } },
      refund: { select: { subscription: { select: { serviceId: true } } } },
    },
  })
  return entries.map((entry) => ({
    number: entry.documentNumber,
    title: DOCUMENT_TITLES[seriesOf(entry.documentNumber) ?? 'RCT'],
    issuedOn: formatIndiaDate(entry.occurredAt),
    amountPaise: entry.amountPaise,
    gstPaise: entry.gstPaise,
    services: documentServices(entry.kind, readCartSnapshot(entry.payment.cart), entry.refund?.subscription?.serviceId)
      .map((item) => item.name)
      .join(', '),
  }))
}
