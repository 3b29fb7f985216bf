import { data, Link } from 'react-router'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import { requireAdmin } from '~/server/admin.server'
import { customerForAdmin } from '~/server/admin-customers.server'
import type { Route } from './+types/customer'

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `${loaderData?.customer.name ?? 'Customer'} | Admin | Research Store` }]

const PROFILE_STEP_LABELS = {
  details: 'Details missing (name, e-mail, date of birth or PAN)',
  'pan-card': 'PAN card image missing',
  agreement: 'Agreement not accepted',
  complete: 'Complete',
} as const

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const customer = await customerForAdmin(params.userId)
  if (!customer) throw data('Not Found', { status: 404 })
  const now = new Date()
  // Formatted here, on the server, so the page reads the same with and without JavaScript.
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      phone: customer.phone,
      email: customer.email,
      pan: customer.pan,
      role: customer.role,
      dateOfBirth: customer.dateOfBirth ? formatIndiaDate(customer.dateOfBirth) : null,
      hasPanCard: customer.panCardKey !== null,
      agreement: customer.agreementAcceptedAt ? { version: customer.agreementVersion, acceptedAt: formatIndiaDateTime(customer.agreementAcceptedAt) } : null,
      profileStatus: PROFILE_STEP_LABELS[customer.profileStep],
    },
    payments: customer.payments.map((payment) => ({
      id: payment.id,
      method: payment.method,
      status: payment.status,
      total: formatRupees(payment.amountPaise),
      services: payment.cart.map((item) => item.name).join(', '),
      utr: payment.utr,
      createdAt: formatIndiaDateTime(payment.createdAt),
      paidAt: payment.paidAt ? formatIndiaDateTime(payment.paidAt) : null,
      rejectedReason: payment.rejectedReason,
    })),
    subscriptions: customer.subscriptions.map((subscription) => ({
      id: subscription.id,
      service: subscription.service.name,
      startsOn: formatIndiaDate(subscription.startsAt),
      endsOn: formatIndiaDate(subscription.endsAt),
      running: subscription.startsAt <= now && subscription.endsAt > now,
    })),
  }
}

export default function AdminCustomer({ loaderData }: Route.ComponentProps) {
  const { customer, payments, subscriptions } = loaderData
  return (
    <>
      <p>
        <Link to="/admin/customers" className="underline">
          Customers
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold capitalize">{customer.name ?? 'Name not given'}</h1>
      <section aria-labelledby="profile-heading" className="mt-4">
        <h2 id="profile-heading" className="text-xl font-semibold">
          Profile and KYC
        </h2>
        <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">Phone</dt>
          <dd>{customer.phone}</dd>
          <dt className="font-medium">E-mail</dt>
          <dd className="break-all">{customer.email ?? 'Not given'}</dd>
          <dt className="font-medium">Date of birth</dt>
          <dd>{customer.dateOfBirth ?? 'Not given'}</dd>
          <dt className="font-medium">PAN</dt>
          <dd>{customer.pan ?? 'Not given'}</dd>
          <dt className="font-medium">Profile</dt>
          <dd>{customer.profileStatus}</dd>
          <dt className="font-medium">Agreement</dt>
          <dd>{customer.agreement ? `Version ${customer.agreement.version ?? 'unknown'}, accepted ${customer.agreement.acceptedAt}` : 'Not accepted'}</dd>
          <dt className="font-medium">PAN card</dt>
          <dd>
            {customer.hasPanCard ? (
              <a href={`/admin/customers/${customer.id}/pan-card`} target="_blank" rel="noopener noreferrer" className="underline">
                View the PAN card image<span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : (
              'Not uploaded'
            )}
          </dd>
        </dl>
      </section>

      <section aria-labelledby="subscriptions-heading" className="mt-8">
        <h2 id="subscriptions-heading" className="text-xl font-semibold">
          Subscriptions
        </h2>
        {subscriptions.length === 0 ? (
          <p className="mt-2">No subscriptions.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {subscriptions.map((subscription) => (
              <li key={subscription.id}>
                <span className="font-medium">{subscription.service}</span>: {subscription.startsOn} to {subscription.endsOn}
                {subscription.running ? ' (running)' : ''}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="payments-heading" className="mt-8">
        <h2 id="payments-heading" className="text-xl font-semibold">
          Payments
        </h2>
        {payments.length === 0 ? (
          <p className="mt-2">No payments.</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {payments.map((payment) => (
              <li key={payment.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <p className="font-medium">
                  {payment.method === 'MANUAL' ? 'Bank transfer' : 'Gateway'}, {payment.status.toLowerCase().replace('_', ' ')}: Rs. {payment.total}
                </p>
                <p className="text-sm">{payment.services}</p>
                <p className="text-sm">
                  Created {payment.createdAt}
                  {payment.paidAt ? `; paid ${payment.paidAt}` : ''}
                  {payment.utr ? `; UTR ${payment.utr}` : ''}
                </p>
                {payment.rejectedReason ? <p className="text-sm">Rejected: {payment.rejectedReason}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}
