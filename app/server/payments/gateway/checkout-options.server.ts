import { checkoutDescription, type GatewayCheckout } from '~/domain/gateway-checkout'
import { gstIncludedText } from '~/domain/gst'
import { businessDetails } from '../../business.server'
import type { StartedGatewayPayment } from '../checkout.server'
import { paymentGateway } from './choice.server'
import type { SessionUser } from '../../session.server'

/** Razorpay's addresses (docs/payments.md: Standard and Hosted Checkout); the CSP in server/http.ts allows them. */
const RAZORPAY_CHECKOUT_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js'
const RAZORPAY_HOSTED_CHECKOUT = 'https://api.razorpay.com/v1/checkout/embedded'

/**
 * The checkout for a started payment. The sandbox (demo mode and tests) has its own stand-ins for
 * checkout.js and the hosted checkout under /dev/sandbox; they answer 404 in a deployment.
 */
export function gatewayCheckout(
  user: SessionUser,
  started: StartedGatewayPayment,
  serviceIds: readonly string[],
  requestUrl: string,
): GatewayCheckout {
  const sandbox = paymentGateway().name === 'sandbox'
  const origin = new URL(requestUrl).origin
  return {
    keyId: started.keyId,
    orderId: started.orderId,
    amountPaise: started.amountPaise,
    currency: started.currency,
    name: businessDetails.name,
    description: checkoutDescription(
      serviceIds,
      businessDetails.gst ? gstIncludedText(started.amountPaise, businessDetails.gst.rateBasisPoints) : null,
    ),
    prefill: { name: user.name ?? '', email: user.email ?? '', contact: user.phone },
    scriptUrl: sandbox ? '/dev/sandbox/checkout.js' : RAZORPAY_CHECKOUT_SCRIPT,
    hostedCheckoutUrl: sandbox ? '/dev/sandbox/checkout' : RAZORPAY_HOSTED_CHECKOUT,
    callbackUrl: `${origin}/payments/callback`,
    // The cancel GET is a top-level navigation: it carries the session cookie, so it can act for the customer.
    cancelUrl: `${origin}/payments/cancel?order=${encodeURIComponent(started.orderId)}`,
  }
}
