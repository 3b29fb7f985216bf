import { redirect } from 'react-router'
import { serializeCart } from '~/server/payments/cart.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { paymentConfirmationFlash } from '~/server/payments/confirmation.server'
import { handleCheckoutCallback } from '~/server/payments/checkout.server'
import { paymentRefusal } from '~/server/payments/core.server'
import type { Route } from './+types/payments.callback'

/** Nothing to show at this address; someone who opens it lands on their payment page. */
export function loader() {
  return redirect('/pay')
}

/**
 * The hosted checkout's POST (docs/payments.md, Hosted Checkout). It arrives from the gateway's site,
 * so without our SameSite=Lax session cookie (server/app.ts lets it past the cross-site check):
 * the posted order id finds the payment and its signature decides. The answer is a 303 to a GET
 * page, which carries the session again.
 */
export async function action({ request }: Route.ActionArgs) {
  // A body that is not a form is no gateway's answer: unverified, like a bad signature.
  const form = await request.formData().catch(() => null)
  if (!form) return redirect('/pay?outcome=unverified', 303)
  try {
    const result = await handleCheckoutCallback(form)
    if (result.status === 'failed') return redirect('/pay?outcome=failed', 303)
    const paid = { status: 303, headers: { 'Set-Cookie': await serializeCart([]) } }
    const confirmation = result.status === 'paid' ? await paymentConfirmationFlash(result.paymentId) : null
    return confirmation
      ? redirectWithFlash('/subscriptions?from=payment', confirmation, paid)
      : redirect('/subscriptions?from=payment', paid)
  } catch (error) {
    paymentRefusal(error) // logs what is not a payment's refusal
    return redirect('/pay?outcome=unverified', 303)
  }
}
