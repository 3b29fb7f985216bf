import { autoRenewStatusText } from '~/domain/auto-renew-status'
import { pendingAuthorisationUrl, type ConsentOffer, type MandateSummary } from '../payments/auto-renew.server'

// The wire shapes of the mandate calls (docs/api.md, "Automatic renewal"): amounts in paise, times as ISO instants.

/** Where the sandbox's authorisation page comes back to for a service: its page on the site. */
export const autoRenewPath = (serviceId: string) => `/subscriptions/${serviceId}/auto-renew`

export async function mandateJson(mandate: MandateSummary, origin: string) {
  return {
    _id: mandate.id,
    service: mandate.serviceId,
    serviceName: mandate.serviceName,
    state: mandate.state,
    status: autoRenewStatusText(mandate),
    amountPaise: mandate.amountPaise,
    maxAmountPaise: mandate.maxAmountPaise,
    periodDays: mandate.periodDays,
    nextChargeAt: mandate.nextChargeAt?.toISOString() ?? null,
    createdAt: mandate.createdAt.toISOString(),
    cancelledAt: mandate.cancelledAt?.toISOString() ?? null,
    authorisationUrl: await pendingAuthorisationUrl(mandate, { origin, returnTo: autoRenewPath(mandate.serviceId) }),
  }
}

export function mandateOfferJson(offer: ConsentOffer) {
  return {
    service: offer.serviceId,
    serviceName: offer.serviceName,
    amountPaise: offer.amountPaise,
    maxAmountPaise: offer.maxAmountPaise,
    periodDays: offer.periodDays,
    firstChargeAt: offer.firstChargeAt.toISOString(),
    consentText: offer.consentText,
    consentSha256: offer.consentSha256,
    consentVersion: offer.consentVersion,
  }
}
