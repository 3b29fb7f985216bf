import type { CartItem } from '~/domain/cart'
import { indiaIsoDate } from '~/domain/dates'
import type { CustomerTerms } from '~/domain/terms-versions'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { serviceDeliveryText } from '~/domain/service-delivery'
import { RISK_LEVEL_LABELS } from '~/domain/risk-levels'
import type { ServiceListing } from '../catalog/services.server'
import { type SessionUser } from '../session.server'
import type { ActiveSubscription } from '../payments/subscriptions.server'
import type { PendingPayment } from '../payments/core.server'

// The existing clients' JSON shapes (docs/api.md): our rows as the SPEC's calls return them.

/** The existing clients' service shape (docs/product.md section 3): price in rupees, duration in days. */
export function serviceJson(service: ServiceListing) {
  return {
    _id: service.id,
    name: service.name,
    description: service.description,
    price: service.pricePaise / PAISE_PER_RUPEE,
    duration: service.durationDays,
    riskLevel: service.riskLevel,
    riskLevelLabel: RISK_LEVEL_LABELS[service.riskLevel],
    delivery: serviceDeliveryText(service.delivery),
  }
}

export function serviceEntryJson(service: ServiceListing) {
  return { _id: service.id, service: serviceJson(service) }
}

/** The existing clients' currentUser: name, email, dob, pan, pancard (where to fetch the image) and agreement. */
export function currentUserJson(user: SessionUser, terms: CustomerTerms) {
  // The version the customer should accept: the one in force they have not accepted (paying waits
  // for it), else the announced one; an app sends the customer to read and accept it.
  const pending = terms.mustAccept ?? terms.announced
  return {
    name: user.name,
    email: user.email,
    dob: user.dateOfBirth ? indiaIsoDate(user.dateOfBirth) : null,
    pan: user.pan,
    pancard: user.panCardKey ? '/details/pan-card' : null,
    agreement: user.agreementAcceptedAt !== null,
    terms: {
      accepted: user.agreementVersion,
      pending: pending
        ? {
            version: pending.version,
            effectiveFrom: pending.effectiveFrom.toISOString(),
            requiredToPay: terms.mustAccept !== null,
            text: '/terms-and-conditions',
            changes: '/terms-and-conditions/changes',
          }
        : null,
    },
  }
}

/**
 * A payment's cart snapshot as the existing clients' cart text:
 * `[{ _id, service: { _id, name, price, duration } }]`, prices of the purchase.
 */
function cartJsonText(cart: readonly CartItem[]): string {
  return JSON.stringify(
    cart.map((item) => ({
      _id: item.serviceId,
      service: {
        _id: item.serviceId,
        name: item.name,
        price: item.pricePaise / PAISE_PER_RUPEE,
        duration: item.durationDays,
      },
    })),
  )
}

/**
 * The existing clients' pending payment (docs/api.md): amount in paise and the cart as JSON text, under
 * manualObject or razorpayObject.
 */
export function pendingPaymentJson(payment: PendingPayment) {
  const detail = {
    amount: payment.amountPaise,
    currency: payment.currency,
    notes: { cart: cartJsonText(payment.cart) },
  }
  return {
    _id: payment.id,
    createdAt: payment.createdAt.toISOString(),
    expiresAt: payment.expiresAt?.toISOString() ?? null,
    // Ours, not the original's (docs/api.md, Calls: pending-payments): a claim waits for our team; a gateway payment is
    // being confirmed with the gateway.
    state: payment.method === 'MANUAL' ? ('awaiting-verification' as const) : ('being-confirmed' as const),
    ...(payment.method === 'MANUAL'
      ? { paymentMethod: 'manual' as const, manualObject: detail }
      : { paymentMethod: 'razorpay' as const, razorpayObject: detail }),
  }
}

/** The existing clients' active subscription: the service id and the latest end as an ISO instant. */
export function activeSubscriptionJson(subscription: ActiveSubscription) {
  return { service: subscription.serviceId, endDate: subscription.endsAt.toISOString() }
}

/** Where an API client saves the profile's details, for the refusals of the later steps. */
export const SAVE_DETAILS_AT = 'with POST /api/v1/users/set-details'
