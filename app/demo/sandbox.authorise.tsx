import { data, Form, redirect } from 'react-router'
import { siteTitle } from '~/domain/business-details'
import { readForm } from '~/server/http/form-data.server'
import { demoSandbox } from '~/server/payments/gateway/choice.server'
import { SandboxError, type SandboxSubscriptionAction } from '~/server/payments/gateway/sandbox.server'
import type { Route } from './+types/sandbox.authorise'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Sandbox mandate') },
  { name: 'robots', content: 'noindex' },
]

/** Only back to a path of this store: the stand-in must not become a way to send people elsewhere. */
const LOCAL_PATH = /^\/(?![/\\])[^\s]*$/

async function sandboxOr404() {
  const sandbox = await demoSandbox()
  if (!sandbox) throw data('Not Found', { status: 404 })
  return sandbox
}

function readQuery(params: URLSearchParams) {
  const subscriptionId = params.get('subscription_id') ?? ''
  const returnTo = params.get('return_to') ?? '/subscriptions'
  if (!subscriptionId || !LOCAL_PATH.test(returnTo))
    throw data('Send subscription_id, and return_to as a path of this store.', { status: 400 })
  return { subscriptionId, returnTo }
}

/**
 * Demo and tests only (404 in a deployment): the stand-in for the page Razorpay's `short_url` opens,
 * where the customer authorises a subscription's mandate; here also what happens later at the
 * customer's bank (the next charge). Each step posts Razorpay's signed webhooks to this store's
 * /webhooks/razorpay, then goes back to `return_to`.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const sandbox = await sandboxOr404()
  const { subscriptionId, returnTo } = readQuery(new URL(request.url).searchParams)
  try {
    const subscription = await sandbox.fetchSubscription(subscriptionId)
    return { subscriptionId, returnTo, status: subscription.status }
  } catch {
    throw data(`The sandbox has no subscription ${subscriptionId}.`, { status: 404 })
  }
}

const ACTIONS: Record<string, SandboxSubscriptionAction> = { authorise: 'authorise', charge: 'charge' }

export async function action({ request }: Route.ActionArgs) {
  const sandbox = await sandboxOr404()
  const { subscriptionId, returnTo } = readQuery(new URL(request.url).searchParams)
  const step = ACTIONS[String((await readForm(request)).get('step') ?? '')]
  if (!step) return redirect(returnTo, 303)
  const deliveries = (() => {
    try {
      return sandbox.subscriptionEvent(subscriptionId, step)
    } catch (error) {
      if (error instanceof SandboxError) throw data(error.message, { status: error.status })
      throw error
    }
  })()
  const webhookUrl = new URL('/webhooks/razorpay', request.url)
  for (const delivery of deliveries) await sandbox.deliverWebhook(delivery, webhookUrl)
  return redirect(returnTo, 303)
}

export default function SandboxAuthorise({ loaderData }: Route.ComponentProps) {
  const { subscriptionId, returnTo, status } = loaderData
  const button =
    'rounded-md border border-gray-300 px-4 py-2 font-semibold hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800'
  return (
    <section className="mx-auto max-w-md rounded-lg p-4 shadow">
      <h1 className="text-2xl font-semibold">Sandbox mandate</h1>
      <p className="mt-2 text-sm">
        A stand-in for the payment gateway&apos;s authorisation page, for the demo and tests. No money moves.
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3">
        <dt>Subscription</dt>
        <dd className="font-mono">{subscriptionId}</dd>
        <dt>Status</dt>
        <dd>{status}</dd>
      </dl>
      <Form
        method="post"
        action={`?${new URLSearchParams({ subscription_id: subscriptionId, return_to: returnTo })}`}
        className="mt-4 flex flex-wrap gap-3"
      >
        {status === 'created' ? (
          <button type="submit" name="step" value="authorise" className={button}>
            Authorise the mandate
          </button>
        ) : null}
        {status === 'authenticated' || status === 'active' ? (
          <button type="submit" name="step" value="charge" className={button}>
            Simulate the next charge
          </button>
        ) : null}
        <button type="submit" name="step" value="back" className={button}>
          Back to the store
        </button>
      </Form>
    </section>
  )
}
