import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { ErrorList, Field, FormMessage, primaryButtonClass } from '~/components/forms'
import { GRANT_REASON_MAX_LENGTH, GrantSubscriptionSchema } from '~/domain/admin'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import { requireAdmin } from '~/server/admin.server'
import { customerForAdmin, grantableServices, grantSubscriptionAsAdmin } from '~/server/admin-customers.server'
import { readForm } from '~/server/forms.server'
import type { Route } from './+types/customer'

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.customer.name ?? 'Customer'} | Admin | Research Store` },
]

const PROFILE_STEP_LABELS = {
  details: 'Details missing (name, e-mail, date of birth or PAN)',
  'pan-card': 'PAN card image missing',
  agreement: 'Agreement not accepted',
  complete: 'Complete',
} as const

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [customer, services] = await Promise.all([customerForAdmin(params.userId), grantableServices()])
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
      agreement: customer.agreementAcceptedAt
        ? { version: customer.agreementVersion, acceptedAt: formatIndiaDateTime(customer.agreementAcceptedAt) }
        : null,
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
      grantReason: subscription.grantReason,
    })),
    services,
  }
}

type GrantValues = { serviceId: string; durationDays: string; reason: string }

/** Grant a complimentary or corrective subscription, with a reason. */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const form = await readForm(request)
  const values: GrantValues = {
    serviceId: String(form.get('serviceId') ?? ''),
    durationDays: String(form.get('durationDays') ?? ''),
    reason: String(form.get('reason') ?? ''),
  }
  const parsed = GrantSubscriptionSchema.safeParse(values)
  if (!parsed.success)
    return data({ values, errors: z.flattenError(parsed.error).fieldErrors, message: null, ok: false }, 400)
  const outcome = await grantSubscriptionAsAdmin(admin.id, params.userId, parsed.data)
  if (!outcome.ok) return data({ values, errors: {}, message: outcome.message, ok: false }, outcome.status)
  return { values: null, errors: {}, message: outcome.message, ok: true }
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, payments, subscriptions, services } = loaderData
  const busy = useNavigation().state !== 'idle'
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
          <dd>
            {customer.agreement
              ? `Version ${customer.agreement.version ?? 'unknown'}, accepted ${customer.agreement.acceptedAt}`
              : 'Not accepted'}
          </dd>
          <dt className="font-medium">PAN card</dt>
          <dd>
            {customer.hasPanCard ? (
              <a
                href={`/admin/customers/${customer.id}/pan-card`}
                target="_blank"
                rel="noopener noreferrer"
                className="underline"
              >
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
                <span className="font-medium">{subscription.service}</span>: {subscription.startsOn} to{' '}
                {subscription.endsOn}
                {subscription.running ? ' (running)' : ''}
                {subscription.grantReason ? (
                  <span className="block text-sm">Granted: {subscription.grantReason}</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="grant-heading" className="mt-8 max-w-xl">
        <h2 id="grant-heading" className="text-xl font-semibold">
          Grant a subscription
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Complimentary or corrective, without a payment. It follows on from a running subscription to the same service;
          the customer is e-mailed and the grant is audited with its reason.
        </p>
        <GrantForm services={services} result={actionData} busy={busy} />
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
                  {payment.method === 'MANUAL' ? 'Bank transfer' : 'Gateway'},{' '}
                  {payment.status.toLowerCase().replace('_', ' ')}: Rs. {payment.total}
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

function GrantForm({
  services,
  result,
  busy,
}: {
  services: Route.ComponentProps['loaderData']['services']
  result: Route.ComponentProps['actionData']
  busy: boolean
}) {
  const errors: Partial<Record<keyof GrantValues, string[]>> = result?.errors ?? {}
  const values = result?.values ?? { serviceId: '', durationDays: '30', reason: '' }
  const serviceErrorId = errors.serviceId?.length ? 'grant-service-errors' : undefined
  const reasonErrorId = errors.reason?.length ? 'grant-reason-errors' : undefined
  const inputClass =
    'mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base dark:border-gray-600 dark:bg-gray-900'
  return (
    <Form
      method="post"
      noValidate
      preventScrollReset
      key={result?.ok ? result.message : 'grant'}
      className="mt-3 space-y-4"
    >
      {result?.message ? <FormMessage tone={result.ok ? 'info' : 'error'}>{result.message}</FormMessage> : null}
      <div>
        <label htmlFor="grant-service" className="block text-sm font-medium">
          Service
        </label>
        <select
          id="grant-service"
          name="serviceId"
          defaultValue={values.serviceId}
          aria-invalid={serviceErrorId ? true : undefined}
          aria-describedby={serviceErrorId}
          className={inputClass}
        >
          <option value="">Choose a service</option>
          {services.map((service) => (
            <option key={service.id} value={service.id}>
              {service.name}
              {service.active ? '' : ' (off sale)'}
            </option>
          ))}
        </select>
        <ErrorList id={serviceErrorId} errors={errors.serviceId} />
      </div>
      <Field
        label="Days"
        errors={errors.durationDays}
        inputProps={{ name: 'durationDays', inputMode: 'numeric', defaultValue: values.durationDays }}
      />
      <div>
        <label htmlFor="grant-reason" className="block text-sm font-medium">
          Reason
        </label>
        <textarea
          id="grant-reason"
          name="reason"
          rows={3}
          maxLength={GRANT_REASON_MAX_LENGTH}
          defaultValue={values.reason}
          aria-invalid={reasonErrorId ? true : undefined}
          aria-describedby={reasonErrorId}
          className={inputClass}
        />
        <ErrorList id={reasonErrorId} errors={errors.reason} />
      </div>
      <button type="submit" disabled={busy} className={primaryButtonClass}>
        Grant subscription
      </button>
    </Form>
  )
}
