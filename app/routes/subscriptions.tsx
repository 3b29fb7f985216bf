import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, repliedField, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { Modal } from '~/components/modal'
import { ServiceDescription } from '~/components/service-description'
import { BankReferenceFormSchema } from '~/domain/bank-reference'
import { formatIndiaDate } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import { requireCompleteProfile } from '~/server/auth.server'
import { businessDetails } from '~/server/business.server'
import { readForm } from '~/server/forms.server'
import { setManualPaymentUtr } from '~/server/payments/manual-claims.server'
import { activeSubscriptions } from '~/server/subscriptions.server'
import { pendingPayments } from '~/server/payments/core.server'
import type { Route } from './+types/subscriptions'

export const meta: Route.MetaFunction = () => [{ title: 'My subscriptions | Research Store' }]

const INFO_DIALOG = 'verification-info'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const url = new URL(request.url)
  // Arriving from a payment always reads fresh (as in the original store), never the 10-minute cache.
  const fresh = url.searchParams.get('from') === 'payment'
  const now = new Date()
  const [pending, active] = await Promise.all([
    pendingPayments(user.id, now, { fresh }),
    activeSubscriptions(user.id, now, { fresh }),
  ])
  return {
    pending: pending.map((payment) => ({
      id: payment.id,
      method: payment.method === 'MANUAL' ? 'Manual' : 'Gateway',
      items: payment.cart.map((item) => ({ serviceId: item.serviceId, name: item.name, pricePaise: item.pricePaise })),
      amountPaise: payment.amountPaise,
      utr: payment.utr,
    })),
    active: active.map((subscription) => ({
      serviceId: subscription.serviceId,
      name: subscription.name,
      description: subscription.description,
      endsOn: formatIndiaDate(subscription.endsAt),
    })),
    infoOpen: url.searchParams.get('dialog') === INFO_DIALOG,
    contactPhone: businessDetails.supportPhone,
  }
}

/** The bank transfer reference (UTR) of a pending manual claim: optional, added or corrected here. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const formData = await readForm(request)
  const paymentId = String(formData.get('paymentId') ?? '')
  // Parsed on the server only, like /pay's forms: the page's JavaScript stays small.
  const submission = parseWithZod(formData, { schema: BankReferenceFormSchema })
  if (submission.status !== 'success') return data({ paymentId, result: submission.reply() }, 400)
  if (!(await setManualPaymentUtr(user.id, submission.value.paymentId, submission.value.utr))) {
    const message = 'This payment is no longer waiting for verification, so its reference cannot be changed.'
    return data({ paymentId, result: submission.reply({ fieldErrors: { utr: [message] } }) }, 409)
  }
  return { paymentId, saved: true as const }
}

export default function Subscriptions({ loaderData, actionData }: Route.ComponentProps) {
  const { pending, active, infoOpen, contactPhone } = loaderData
  return (
    <>
      {pending.length > 0 ? (
        <details open className="mb-6 rounded-lg border border-amber-300 p-4 dark:border-amber-700">
          <summary className="cursor-pointer text-lg font-semibold">Payment(s) Pending for Verification</summary>
          <p className="mt-2 text-sm">
            <Link
              to={`?dialog=${INFO_DIALOG}`}
              preventScrollReset
              className="font-medium text-green-700 underline dark:text-green-400"
            >
              What happens now?
            </Link>
          </p>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2">
            {pending.map((payment) => (
              <li key={payment.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <h3 className="font-semibold">{payment.method} Payment</h3>
                <ul className="mt-2 space-y-1 text-sm">
                  {payment.items.map((item) => (
                    <li key={item.serviceId} className="flex justify-between gap-4">
                      <span>{item.name}</span>
                      <span>Rs. {formatRupees(item.pricePaise)}</span>
                    </li>
                  ))}
                </ul>
                <p className="mt-2 font-medium">Total Amount: Rs. {formatRupees(payment.amountPaise)}</p>
                {payment.method === 'Manual' ? (
                  <BankReferenceForm
                    paymentId={payment.id}
                    utr={payment.utr}
                    answer={actionData?.paymentId === payment.id ? actionData : undefined}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <h1 className="text-2xl font-semibold">My Subscription(s)</h1>
      {active.length === 0 ? (
        <p className="mt-4">No active subscriptions</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {active.map((subscription) => (
            <li key={subscription.serviceId} className="rounded-lg border border-gray-200 p-4 dark:border-gray-700">
              <h2 className="text-lg font-semibold capitalize">{subscription.name}</h2>
              <ServiceDescription lines={subscription.description} className="mt-2" />
              <p className="mt-3 font-medium">Ends on {subscription.endsOn}</p>
            </li>
          ))}
        </ul>
      )}
      {infoOpen ? (
        <Modal title="Payment Verification Information" closeTo="/subscriptions">
          <p>
            Our team verifies each payment claim against the bank account. Once it is confirmed, the subscription starts
            and we e-mail you.
          </p>
          <p className="mt-2">A claim that is not confirmed within 7 days is dismissed automatically.</p>
          <p className="mt-2">Questions? Call us on {contactPhone}.</p>
          <p className="mt-4">
            <Link
              to="/subscriptions"
              replace
              preventScrollReset
              className="inline-flex rounded-md bg-green-700 px-4 py-2 font-semibold text-white"
            >
              Understood
            </Link>
          </p>
        </Modal>
      ) : null}
    </>
  )
}

function BankReferenceForm({
  paymentId,
  utr,
  answer,
}: {
  paymentId: string
  utr: string | null
  answer: Route.ComponentProps['actionData']
}) {
  const pending = useIsPending()
  const saving = useIsPending({ fields: { paymentId } })
  const saved = answer && 'saved' in answer
  const typed = repliedField(answer && 'result' in answer ? answer.result : undefined, 'utr')
  return (
    <Form
      method="post"
      preventScrollReset
      className="mt-3 space-y-2 border-t border-gray-100 pt-3 dark:border-gray-800"
    >
      <input type="hidden" name="paymentId" value={paymentId} />
      {saved ? <FormMessage tone="info">Bank reference saved</FormMessage> : null}
      <Field
        key={utr ?? ''}
        label={utr ? 'Bank reference (UTR)' : 'Add the bank reference (UTR), optional'}
        hint="It helps our team find your transfer sooner."
        errors={typed.errors}
        inputProps={{
          id: `utr-${paymentId}`,
          name: 'utr',
          maxLength: 40,
          autoComplete: 'off',
          defaultValue: typed.defaultValue ?? utr ?? '',
        }}
      />
      <StatusButton variant="secondary" disabled={pending} status={saving ? 'pending' : saved ? 'success' : 'idle'}>
        Save reference
      </StatusButton>
    </Form>
  )
}
