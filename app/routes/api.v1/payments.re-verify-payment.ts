import { postOnly, verifyPaymentCall } from '~/server/api.server'
import type { Route } from './+types/payments.re-verify-payment'

export const loader = postOnly

export function action({ request }: Route.ActionArgs) {
  return verifyPaymentCall(request, 'reverify')
}
