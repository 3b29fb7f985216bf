import { apiPost, postOnly } from '~/server/api/requests.server'
import { verifyPaymentCall } from '~/server/api/verify-payment-call.server'
import type { Route } from './+types/payments.re-verify-payment'

export const loader = postOnly

export const action = apiPost(({ request }: Route.ActionArgs) => verifyPaymentCall(request, 'reverify'))
