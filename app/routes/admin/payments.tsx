import { siteTitle } from '~/domain/business-details'
import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Form, Link, useLocation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { ResultMessage } from '~/components/result-message'
import { Field, SelectField, secondaryButtonClass, StatusButton, TextareaField } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import {
  ADMIN_PAGE_SIZE,
  bankStatementEntryOf,
  NAME_MISMATCH_REASON_MAX_LENGTH,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PaymentListFilterSchema,
  REJECT_REASON_MAX_LENGTH,
  ReviewPaymentSchema,
} from '~/domain/admin'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { PAYER_ACCOUNT_NAME_MAX_LENGTH } from '~/domain/payer-account-name'
import { formatDuration } from '~/domain/durations'
import { readPageRequest } from '~/domain/keyset'
import { formatRupees } from '~/domain/money'
import { MANUAL_PAYMENT_EXPIRY_DAYS } from '~/domain/payment-status'
import { PAYER_NAME_CHECK_LABELS } from '~/domain/payer-name-match'
import {
  confirmPaymentAsAdmin,
  paymentsForAdmin,
  overLimitPeriods,
  pendingManualPaymentsForReview,
  countManualClaimsToReview,
  rejectPaymentAsAdmin,
  type ReviewOutcome,
} from '~/server/admin/payments.server'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/payments'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Payments | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const searchParams = new URL(request.url).searchParams
  const params = Object.fromEntries([...searchParams].filter(([, value]) => value !== ''))
  const parsedFilter = PaymentListFilterSchema.safeParse(params)
  const filter = parsedFilter.success ? parsedFilter.data : {}
  const { page, invalid } = readPageRequest(searchParams, 'uuid')
  const now = new Date()
  const [pending, pendingTotal, payments, overLimit] = await Promise.all([
    pendingManualPaymentsForReview(now),
    countManualClaimsToReview(now),
    paymentsForAdmin(filter, page),
    overLimitPeriods(now),
  ])
  // Times are formatted here, on the server, so the page reads the same with and without JavaScript.
  return {
    filter,
    pendingTotal,
    pending: pending.map((payment) => ({
      id: payment.id,
      customer: payment.user,
      cart: payment.cart.map((item) => ({
        serviceId: item.serviceId,
        name: item.name,
        price: formatRupees(item.pricePaise),
      })),
      total: formatRupees(payment.amountPaise),
      utr: payment.utr,
      payerAccountName: payment.payerAccountName,
      kycName: payment.kycName,
      submittedAt: formatIndiaDateTime(payment.createdAt),
      age: formatDuration(payment.ageMs),
      timeLeft: formatDuration(payment.timeLeftMs),
      expiresAt: formatIndiaDateTime(payment.expiresAt),
    })),
    overLimit: overLimit.map((period) => ({
      subscriptionId: period.subscriptionId,
      customer: period.customer,
      serviceName: period.serviceName,
      paidOn: formatIndiaDate(period.paidAt),
      endsOn: formatIndiaDate(period.endsAt),
      cutAtLimit: period.cutAtLimit,
      excessDays: period.excessDays,
      refund: formatRupees(period.excessPaise),
    })),
    invalidCursor: invalid,
    next: payments.next,
    previous: payments.previous,
    payments: payments.rows.map((payment) => ({
      id: payment.id,
      method: payment.method,
      status: payment.status,
      utr: payment.utr,
      payerAccountName: payment.payerAccountName,
      bankUtr: payment.bankUtr,
      bankPayerName: payment.bankPayerName,
      payerNameCheck: payment.payerNameCheck ? PAYER_NAME_CHECK_LABELS[payment.payerNameCheck] : null,
      payerNameMismatchReason: payment.payerNameMismatchReason,
      customer: payment.user,
      services: payment.cart.map((item) => item.name).join(', '),
      total: formatRupees(payment.amountPaise),
      gatewayOrderId: payment.gatewayOrderId,
      gatewayPaymentId: payment.gatewayPaymentId,
      failureReason: payment.failureReason,
      createdAt: formatIndiaDateTime(payment.createdAt),
      paidAt: payment.paidAt ? formatIndiaDateTime(payment.paidAt) : null,
    })),
  }
}

type ActionResult = {
  paymentId: string
  intent: string
  result: SubmissionResult<string[]>
  outcome: ReviewOutcome | null
  /** A first press of Confirm: the page asks "are you sure?" for this payment. */
  confirming?: boolean
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: ReviewPaymentSchema })
  const echo = { paymentId: String(formData.get('paymentId') ?? ''), intent: String(formData.get('intent') ?? '') }
  if (submission.status !== 'success') {
    // A refused confirmation keeps its second step open, with the errors on its fields.
    const confirming = echo.intent === 'confirm' || undefined
    return data<ActionResult>({ ...echo, result: submission.reply(), outcome: null, confirming }, 400)
  }
  const review = submission.value
  const statement = review.intent === 'confirm' ? bankStatementEntryOf(review) : null
  if (review.intent === 'confirm' && !statement) {
    return data<ActionResult>({ ...echo, result: submission.reply(), outcome: null, confirming: true })
  }
  const outcome =
    review.intent === 'confirm'
      ? await confirmPaymentAsAdmin(admin.id, review.paymentId, statement!)
      : await rejectPaymentAsAdmin(admin.id, review.paymentId, review.reason)
  if (!outcome.ok && outcome.status === 400) {
    const fieldErrors = { [outcome.field]: [outcome.message] }
    return data<ActionResult>(
      { ...echo, result: submission.reply({ fieldErrors }), outcome: null, confirming: true },
      400,
    )
  }
  return data<ActionResult>(
    { ...echo, result: submission.reply({ resetForm: true }), outcome },
    outcome.ok ? 200 : outcome.status,
  )
}

/** A 409 means another admin got there first: reload the lists so that payment leaves the page. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate
}

type PendingPayment = Route.ComponentProps['loaderData']['pending'][number]
type ListedPayment = Route.ComponentProps['loaderData']['payments'][number]

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  const { pending, pendingTotal, payments, filter, overLimit, next, previous, invalidCursor } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Payments</h1>
      {actionData?.outcome ? (
        <div className="mt-4">
          <ResultMessage tone={actionData.outcome.ok ? 'success' : 'error'} answer={actionData}>
            {actionData.outcome.message}
          </ResultMessage>
        </div>
      ) : null}

      <section aria-labelledby="review-heading" className="mt-6">
        <h2 id="review-heading" className="text-xl font-semibold">
          Payments to review
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Bank transfers customers say they made, oldest first. Unconfirmed claims expire after{' '}
          {MANUAL_PAYMENT_EXPIRY_DAYS} days.
        </p>
        {pending.length === 0 ? (
          <p className="mt-4">No manual payments are waiting for review.</p>
        ) : (
          <ul className="mt-4 space-y-4">
            {pending.map((payment) => (
              <li key={payment.id}>
                <PendingPaymentCard
                  payment={payment}
                  actionData={actionData?.paymentId === payment.id ? actionData : undefined}
                />
              </li>
            ))}
          </ul>
        )}
        {pendingTotal > pending.length ? (
          <p className="mt-4">
            Showing the {pending.length} oldest of {pendingTotal} claims waiting; as these are confirmed or rejected,
            the next come up.
          </p>
        ) : null}
      </section>

      <OverLimitPeriods periods={overLimit} />

      <section aria-labelledby="payments-heading" className="mt-10">
        <h2 id="payments-heading" className="text-xl font-semibold">
          All payments
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Newest first, read-only, {ADMIN_PAGE_SIZE} to a page.
        </p>
        <PaymentFilter filter={filter} />
        <InvalidCursorNotice invalid={invalidCursor} />
        {payments.length === 0 ? (
          <p className="mt-4">No payments match.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {payments.map((payment) => (
              <li key={payment.id}>
                <PaymentCard payment={payment} />
              </li>
            ))}
          </ul>
        )}
        <Pager label="Pages of payments" next={next} previous={previous} />
      </section>
    </>
  )
}

const cardClass = 'rounded-lg border border-gray-200 p-4 dark:border-gray-700'
const termClass = 'text-sm text-gray-700 dark:text-gray-300'

function PendingPaymentCard({ payment, actionData }: { payment: PendingPayment; actionData?: ActionResult }) {
  const headingId = `payment-${payment.id}-heading`
  const customerName = payment.customer.name ?? 'No name yet'
  // With JavaScript, a second click while this payment's review is on its way does nothing (the server is idempotent anyway).
  const busy = useIsPending({ state: 'submitting', fields: { paymentId: payment.id } })
  return (
    <article aria-labelledby={headingId} className={cardClass}>
      <h3 id={headingId} className="text-lg font-semibold capitalize">
        {customerName}, <span className="normal-case">{payment.customer.phone}</span>
      </h3>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2">
        <div>
          <dt className={termClass}>Services</dt>
          <dd>
            <ul>
              {payment.cart.map((item) => (
                <li key={item.serviceId}>
                  {item.name}: Rs. {item.price}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt className={termClass}>Total</dt>
          <dd className="font-semibold">Rs. {payment.total}</dd>
        </div>
        <div>
          <dt className={termClass}>UTR given by the customer</dt>
          <dd className="break-all">{payment.utr ?? 'Not given'}</dd>
        </div>
        <div>
          <dt className={termClass}>Paid from the account of</dt>
          <dd className="break-all">{payment.payerAccountName ?? 'Not given'}</dd>
        </div>
        <div>
          <dt className={termClass}>E-mail</dt>
          <dd className="break-all">{payment.customer.email ?? 'Not given'}</dd>
        </div>
        <div>
          <dt className={termClass}>Submitted</dt>
          <dd>
            {payment.submittedAt} ({payment.age} ago)
          </dd>
        </div>
        <div>
          <dt className={termClass}>Time left before expiry</dt>
          <dd>
            {payment.timeLeft} (expires {payment.expiresAt})
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start">
        {actionData?.confirming ? (
          <ConfirmStep
            payment={payment}
            customerName={customerName}
            busy={busy}
            lastResult={actionData.intent === 'confirm' ? actionData.result : undefined}
          />
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="paymentId" value={payment.id} />
            <StatusButton status={busy ? 'pending' : 'idle'}>Confirm</StatusButton>
          </Form>
        )}
        <RejectForm
          paymentId={payment.id}
          busy={busy}
          lastResult={actionData?.intent === 'reject' ? actionData.result : undefined}
        />
      </div>
    </article>
  )
}

/**
 * Confirm's second step, a form of its own so that it works without JavaScript; Cancel reloads the
 * page. The admin types what the bank statement shows (not what the customer claimed): the server
 * checks the payer's name against the KYC name and asks for a reason when they differ.
 */
function ConfirmStep({
  payment,
  customerName,
  busy,
  lastResult,
}: {
  payment: PendingPayment
  customerName: string
  busy: boolean
  lastResult?: SubmissionResult<string[]>
}) {
  const { search } = useLocation()
  const [form, fields] = useForm({
    id: `confirm-${payment.id}`,
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReviewPaymentSchema }),
  })
  return (
    <div className="flex-1 rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950">
      <p className="font-medium">
        Confirm payment of Rs. {payment.total} from <span className="capitalize">{customerName}</span>?
      </p>
      <p className="mt-1 text-sm">
        Enter the transfer as the bank statement shows it. The customer&apos;s KYC name is{' '}
        <span className="font-semibold capitalize">{payment.kycName ?? 'not known'}</span>.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="paymentId" value={payment.id} />
        <input type="hidden" name="confirmed" value="yes" />
        <Field
          label="UTR on the bank statement"
          errors={fields.bankUtr.errors}
          inputProps={{ ...getInputProps(fields.bankUtr, { type: 'text' }), autoComplete: 'off', required: true }}
        />
        <Field
          label="Payer's account name on the bank statement"
          errors={fields.bankPayerName.errors}
          inputProps={{
            ...getInputProps(fields.bankPayerName, { type: 'text' }),
            autoComplete: 'off',
            required: true,
            maxLength: PAYER_ACCOUNT_NAME_MAX_LENGTH,
          }}
        />
        <TextareaField
          label="Reason for accepting a payer name unlike the KYC name (only if they differ; audited)"
          errors={fields.nameMismatchReason.errors}
          textareaProps={{
            ...getTextareaProps(fields.nameMismatchReason),
            maxLength: NAME_MISMATCH_REASON_MAX_LENGTH,
            rows: 2,
          }}
        />
        <div className="flex flex-wrap items-center gap-3">
          <StatusButton status={busy ? 'pending' : 'idle'}>Yes, confirm</StatusButton>
          <Link to={`/admin/payments${search}`} className={secondaryButtonClass}>
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  )
}

function RejectForm({
  paymentId,
  busy,
  lastResult,
}: {
  paymentId: string
  busy: boolean
  lastResult?: SubmissionResult<string[]>
}) {
  const [form, fields] = useForm({
    id: `reject-${paymentId}`,
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReviewPaymentSchema }),
  })
  // Once the reason was refused, the panel stays open while it is corrected (the errors clear as
  // it is typed, which must not fold the panel away with its button).
  const refused = Boolean(fields.reason.errors?.length)
  const [keptOpen, setKeptOpen] = useState(refused)
  if (refused && !keptOpen) setKeptOpen(true)
  return (
    <details open={refused || keptOpen} className="flex-1">
      <summary className={`${secondaryButtonClass} cursor-pointer`}>Reject…</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-2">
        <input type="hidden" name="intent" value="reject" />
        <input type="hidden" name="paymentId" value={paymentId} />
        <TextareaField
          label="Reason for rejecting (sent to the customer)"
          errors={fields.reason.errors}
          textareaProps={{
            ...getTextareaProps(fields.reason),
            required: true,
            minLength: 3,
            maxLength: REJECT_REASON_MAX_LENGTH,
            rows: 3,
          }}
        />
        <StatusButton variant="secondary" disabled={busy}>
          Reject payment
        </StatusButton>
      </Form>
    </details>
  )
}

function PaymentFilter({ filter }: { filter: { method?: string; status?: string; from?: string; to?: string } }) {
  const filtering = useIsPending({ formMethod: 'GET' })
  return (
    <Form method="get" className="mt-3 flex flex-wrap items-end gap-3" aria-label="Filter payments">
      <SelectField
        label="Status"
        selectProps={{ id: 'gateway-status', name: 'status', defaultValue: filter.status ?? '' }}
        placeholder="Any"
        options={PAYMENT_STATUSES.map((status) => ({ value: status, label: status }))}
      />
      <Field
        label="From (India date)"
        inputProps={{ id: 'gateway-from', type: 'date', name: 'from', defaultValue: filter.from ?? '' }}
      />
      <Field
        label="To (India date)"
        inputProps={{ id: 'gateway-to', type: 'date', name: 'to', defaultValue: filter.to ?? '' }}
      />
      <SelectField
        label="Method"
        selectProps={{ id: 'payment-method', name: 'method', defaultValue: filter.method ?? '' }}
        placeholder="Any"
        options={PAYMENT_METHODS.map((method) => ({ value: method, label: PAYMENT_METHOD_LABELS[method] }))}
      />
      <StatusButton variant="secondary" status={filtering ? 'pending' : 'idle'}>
        Filter
      </StatusButton>
    </Form>
  )
}

/** Read-only: what to refund by hand until refunds are built (docs/payments.md, "The one-year advance limit"). */
function OverLimitPeriods({ periods }: { periods: Route.ComponentProps['loaderData']['overLimit'] }) {
  return (
    <section aria-labelledby="over-limit-heading" className="mt-10">
      <h2 id="over-limit-heading" className="text-xl font-semibold">
        Paid beyond the one-year advance limit
      </h2>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        SEBI allows fees at most one year in advance. These periods were sold before the store enforced it, or were cut
        at the limit when a gateway payment arrived after the check; refund the days beyond the limit.
      </p>
      {periods.length === 0 ? (
        <p className="mt-4">No paid period reaches beyond the limit.</p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-gray-200 dark:border-gray-700">
                <th scope="col" className="py-2 pr-4">
                  Customer
                </th>
                <th scope="col" className="py-2 pr-4">
                  Service
                </th>
                <th scope="col" className="py-2 pr-4">
                  Paid on
                </th>
                <th scope="col" className="py-2 pr-4">
                  Ends on
                </th>
                <th scope="col" className="py-2 pr-4">
                  Days beyond the limit
                </th>
                <th scope="col" className="py-2">
                  To refund
                </th>
              </tr>
            </thead>
            <tbody>
              {periods.map((period) => (
                <tr key={period.subscriptionId} className="border-b border-gray-100 dark:border-gray-800">
                  <td className="py-2 pr-4">
                    <Link to={`/admin/customers/${period.customer.id}`} className="underline">
                      <span className="capitalize">{period.customer.name ?? 'No name yet'}</span> (
                      {period.customer.phone})
                    </Link>
                  </td>
                  <td className="py-2 pr-4">{period.serviceName}</td>
                  <td className="py-2 pr-4">{period.paidOn}</td>
                  <td className="py-2 pr-4">
                    {period.endsOn}
                    {period.cutAtLimit ? ' (cut at the limit)' : ''}
                  </td>
                  <td className="py-2 pr-4">{period.excessDays}</td>
                  <td className="py-2">Rs. {period.refund}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

function PaymentCard({ payment }: { payment: ListedPayment }) {
  const label =
    payment.method === 'GATEWAY'
      ? `Gateway payment ${payment.gatewayOrderId ?? payment.id}`
      : `Bank transfer ${payment.utr ?? payment.id}`
  return (
    <article aria-label={label} className={cardClass}>
      <p className="font-semibold">
        Rs. {payment.total}, {payment.status},{' '}
        <span className="capitalize">{payment.customer.name ?? 'No name yet'}</span> ({payment.customer.phone})
      </p>
      <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-gray-700 dark:text-gray-300">Services: </dt>
          <dd className="inline">{payment.services}</dd>
        </div>
        <div>
          <dt className="inline text-gray-700 dark:text-gray-300">Created: </dt>
          <dd className="inline">{payment.createdAt}</dd>
        </div>
        {payment.method === 'GATEWAY' ? (
          <>
            <div>
              <dt className="inline text-gray-700 dark:text-gray-300">Order id: </dt>
              <dd className="inline break-all">{payment.gatewayOrderId ?? '-'}</dd>
            </div>
            <div>
              <dt className="inline text-gray-700 dark:text-gray-300">Gateway payment id: </dt>
              <dd className="inline break-all">{payment.gatewayPaymentId ?? '-'}</dd>
            </div>
          </>
        ) : (
          <>
            <div>
              <dt className="inline text-gray-700 dark:text-gray-300">UTR given by the customer: </dt>
              <dd className="inline break-all">{payment.utr ?? '-'}</dd>
            </div>
            {payment.bankUtr ? (
              <>
                <div>
                  <dt className="inline text-gray-700 dark:text-gray-300">UTR on the bank statement: </dt>
                  <dd className="inline break-all">{payment.bankUtr}</dd>
                </div>
                <div>
                  <dt className="inline text-gray-700 dark:text-gray-300">Paid from the account of: </dt>
                  <dd className="inline break-all">
                    {payment.bankPayerName} ({payment.payerNameCheck})
                  </dd>
                </div>
                {payment.payerNameMismatchReason ? (
                  <div>
                    <dt className="inline text-gray-700 dark:text-gray-300">Accepted because: </dt>
                    <dd className="inline break-words">{payment.payerNameMismatchReason}</dd>
                  </div>
                ) : null}
              </>
            ) : null}
          </>
        )}
        {payment.paidAt ? (
          <div>
            <dt className="inline text-gray-700 dark:text-gray-300">Paid: </dt>
            <dd className="inline">{payment.paidAt}</dd>
          </div>
        ) : null}
        {payment.failureReason ? (
          <div>
            <dt className="inline text-gray-700 dark:text-gray-300">Failure: </dt>
            <dd className="inline">{payment.failureReason}</dd>
          </div>
        ) : null}
      </dl>
    </article>
  )
}
