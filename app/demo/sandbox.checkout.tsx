import { siteTitle } from '~/domain/business-details'
import { data, redirect } from 'react-router'
import { formatRupees } from '~/domain/money'
import { readForm } from '~/server/http/form-data.server'
import { demoSandbox } from '~/server/payments/gateway/choice.server'
import { SandboxError } from '~/server/payments/gateway/sandbox.server'
import type { Route } from './+types/sandbox.checkout'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Sandbox checkout') },
  { name: 'robots', content: 'noindex' },
]

/**
 * Demo and tests only (404 in a deployment): the stand-in for Razorpay's hosted checkout that /pay
 * posts to without JavaScript. It pays through the sandbox gateway, signed with the sandbox secret,
 * and sends the customer back exactly as the real one does: a POST of the signed fields (or the
 * error fields) to callback_url, or a GET of cancel_url.
 */
export async function loader() {
  if (!(await demoSandbox())) throw data('Not Found', { status: 404 })
  return null
}

type CheckoutForm = {
  orderId: string
  amountPaise: number
  name: string
  description: string
  callbackUrl: string
  cancelUrl: string
}

export async function action({ request }: Route.ActionArgs) {
  const sandbox = await demoSandbox()
  if (!sandbox) throw data('Not Found', { status: 404 })
  const form = await readForm(request)
  const text = (name: string) => String(form.get(name) ?? '')
  const origin = new URL(request.url).origin
  const checkout: CheckoutForm = {
    orderId: text('order_id'),
    amountPaise: Number(text('amount')),
    name: text('name'),
    description: text('description'),
    callbackUrl: text('callback_url'),
    cancelUrl: text('cancel_url'),
  }
  // Only back to this store: the stand-in must not become a way to post signed fields elsewhere.
  const ours = (url: string) => URL.canParse(url) && new URL(url).origin === origin
  if (!checkout.orderId || !ours(checkout.callbackUrl) || !ours(checkout.cancelUrl)) {
    throw data('Send order_id, and callback_url and cancel_url on this store.', { status: 400 })
  }

  const outcome = text('outcome')
  if (outcome === 'close') return redirect(checkout.cancelUrl, 303)
  if (outcome !== 'success' && outcome !== 'failure') return { stage: 'choose' as const, checkout }

  let paid: ReturnType<typeof sandbox.pay>
  try {
    paid = sandbox.pay(checkout.orderId, outcome === 'success' ? 'captured' : 'failed')
  } catch (error) {
    if (error instanceof SandboxError) throw data(error.message, { status: error.status })
    throw error
  }
  const fields: [string, string][] =
    outcome === 'success'
      ? Object.entries(paid)
      : [
          ['error[code]', 'BAD_REQUEST_ERROR'],
          ['error[description]', 'Payment failed'],
          ['error[source]', 'bank'],
          ['error[step]', 'payment_authorization'],
          ['error[reason]', 'payment_failed'],
          ['error[metadata]', JSON.stringify({ payment_id: paid.razorpay_payment_id, order_id: checkout.orderId })],
        ]
  return { stage: 'return' as const, checkout, paid: outcome === 'success', fields }
}

export default function SandboxCheckout({ actionData }: Route.ComponentProps) {
  if (!actionData) {
    return (
      <section className="mx-auto max-w-md">
        <h1 className="text-2xl font-semibold">Sandbox checkout</h1>
        <p className="mt-4">This page opens from “Pay on Website” on the payment page.</p>
      </section>
    )
  }
  const { checkout } = actionData
  const hidden = (
    <>
      <input type="hidden" name="order_id" value={checkout.orderId} />
      <input type="hidden" name="amount" value={checkout.amountPaise} />
      <input type="hidden" name="name" value={checkout.name} />
      <input type="hidden" name="description" value={checkout.description} />
      <input type="hidden" name="callback_url" value={checkout.callbackUrl} />
      <input type="hidden" name="cancel_url" value={checkout.cancelUrl} />
    </>
  )
  const button =
    'rounded-md border border-gray-300 px-4 py-2 font-semibold hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800'
  return (
    <section className="mx-auto max-w-md rounded-lg p-4 shadow">
      <h1 className="text-2xl font-semibold">Sandbox checkout</h1>
      <p className="mt-2 text-sm">
        A stand-in for the payment gateway&apos;s page, for the demo and tests. No money moves.
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3">
        <dt>Pay to</dt>
        <dd>{checkout.name}</dd>
        <dt>Amount</dt>
        <dd>Rs. {formatRupees(checkout.amountPaise)}</dd>
        <dt>Order</dt>
        <dd className="font-mono">{checkout.orderId}</dd>
      </dl>
      {actionData.stage === 'choose' ? (
        <form method="post" className="mt-4 flex flex-wrap gap-3">
          {hidden}
          <button type="submit" name="outcome" value="success" className={button}>
            Simulate success
          </button>
          <button type="submit" name="outcome" value="failure" className={button}>
            Simulate failure
          </button>
          <button type="submit" name="outcome" value="close" className={button}>
            Close
          </button>
        </form>
      ) : (
        <form method="post" action={checkout.callbackUrl} className="mt-4 space-y-3">
          <p role="status" className="font-semibold">
            {actionData.paid ? 'Payment successful.' : 'Payment failed.'}
          </p>
          {actionData.fields.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className={button}>
            Return to the store
          </button>
        </form>
      )}
    </section>
  )
}
