import { siteTitle } from '~/domain/business-details'
import { Link } from 'react-router'
import { personName } from '~/domain/names'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { activeSubscriptions } from '~/server/payments/subscriptions.server'
import { pendingPayments } from '~/server/payments/core.server'
import type { Route } from './+types/home'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches) }]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const now = new Date()
  const [subscriptions, payments] = await Promise.all([
    activeSubscriptions(user.id, now),
    pendingPayments(user.id, now),
  ])
  return {
    name: personName(user.name),
    activeSubscriptionCount: subscriptions.length,
    pendingPaymentCount: payments.length,
  }
}

const linkClass = 'font-medium text-green-700 underline dark:text-green-400'

export default function Home({ loaderData }: Route.ComponentProps) {
  const { name, activeSubscriptionCount, pendingPaymentCount } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Hello, {name}</h1>
      <p className="mt-2">Time-limited research subscriptions from a SEBI-registered research analyst.</p>
      <dl className="mt-4 grid max-w-md grid-cols-2 gap-4">
        <div className="rounded-lg border border-gray-200 p-3 dark:border-gray-700">
          <dt className="text-sm text-gray-700 dark:text-gray-300">Active subscriptions</dt>
          <dd className="text-2xl font-semibold">{activeSubscriptionCount}</dd>
        </div>
        <div className="rounded-lg border border-gray-200 p-3 dark:border-gray-700">
          <dt className="text-sm text-gray-700 dark:text-gray-300">Payments pending verification</dt>
          <dd className="text-2xl font-semibold">{pendingPaymentCount}</dd>
        </div>
      </dl>
      <ul className="mt-4 list-disc space-y-2 pl-6">
        <li>
          <Link to="/services" className={linkClass}>
            Browse the services
          </Link>
        </li>
        <li>
          <Link to="/subscriptions" className={linkClass}>
            Your subscriptions
          </Link>
        </li>
        <li>
          <Link to="/research" className={linkClass}>
            Your research
          </Link>
        </li>
      </ul>
    </>
  )
}
