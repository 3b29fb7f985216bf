import { apiPost, postOnly, verifyPaymentCall } from '~/server/api.server'
import type { Route } from './+types/payments.verify-payment'

export const loader = postOnly

export const action = apiPost(({ request }: Route.ActionArgs) => verifyPaymentCall(request, 'checkout'))
