import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data, Form, Link, redirect, useNavigate } from 'react-router'
import { Field, FormMessage, repliedField, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { BankAccountDetails } from '~/components/bank-account-details'
import { Modal } from '~/components/modal'
import { ServiceDescription } from '~/components/service-description'
import { StopAutoRenewForm } from '~/components/stop-auto-renew-form'
import { autoRenewStatusText } from '~/domain/auto-renew-status'
import { BankReferenceFormSchema } from '~/domain/bank-reference'
import { type BankAccount, siteTitle, whatsappHref } from '~/domain/business-details'
import { payAgainNotice } from '~/domain/cart'
import { formatIndiaDate } from '~/domain/dates'
import { renewalPath } from '~/domain/renewal-reminders'
import { formatRupees } from '~/domain/money'
import { MANUAL_PAYMENT_EXPIRY_DAYS } from '~/domain/payment-status'
import { requireCompleteProfile, requirePayingCustomer } from '~/server/auth/sign-in.server'
import { businessDetails } from '~/server/business.server'
import { pricedCart, readCart, serializeCart } from '~/server/payments/cart.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { confirmOpenGatewayPayments, paymentConfirmationFlash } from '~/server/payments/confirmation.server'
import {
  recentlyRejectedClaims,
  rejectedClaimServices,
  setManualPaymentUtr,
} from '~/server/payments/manual-claims.server'
import { activeSubscriptions, recentlyEndedSubscriptions } from '~/server/payments/subscriptions.server'
import { refundsInProgress } from '~/server/payments/refunds/customer-refunds.server'
import { pendingPayments } from '~/server/payments/core.server'
import { customerMandates } from '~/server/payments/auto-renew.server'
import type { Route } from './+types/subscriptions'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'My subscriptions') }]

const INFO_DIALOG = 'verification-info'
/**
 * With JavaScript, a payment being confirmed is checked again this often; without it, "Check again"
 * does it (a meta refresh would move the page under a screen reader's feet: WCAG 2.2.1).
 */
const CONFIRMING_RECHECK_MS = 10_000
/** ...while it is this young; later the webhook or the reconciliation job settles it, and "Check again" stays. */
const CONFIRMING_REFRESH_WINDOW_MS = 15 * 60_000
const CHECK_AGAIN_URL = '/subscriptions?check=1'
const REFUND_STATE_CLASSES = {
  REQUESTED: 'font-medium text-amber-800 dark:text-amber-300',
  PAID: 'font-medium text-green-800 dark:text-green-300',
  RETRYING: 'font-medium text-red-800 dark:text-red-300',
} as const

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const url = new URL(request.url)
  // Arriving from a payment always reads fresh (as in the original store, docs/product.md section 4), never the
  // 10-minute cache.
  const fresh = url.searchParams.get('from') === 'payment' || url.searchParams.has('check')
  const now = new Date()
  // A gateway payment whose answer never reached us (a network drop) is asked about here, and so is
  // a checkout tab closed before paying: nothing was paid on it, so it is not "being confirmed".
  const {
    paid: [paidNow],
    unpaid,
  } = await confirmOpenGatewayPayments(user.id, now)
  if (paidNow) {
    const confirmation = await paymentConfirmationFlash(paidNow)
    throw confirmation
      ? await redirectWithFlash('/subscriptions?from=payment', confirmation)
      : redirect('/subscriptions')
  }
  const [pending, active, rejected, refunds, mandates] = await Promise.all([
    pendingPayments(user.id, now, { fresh }),
    activeSubscriptions(user.id, now, { fresh }),
    recentlyRejectedClaims(user.id, now),
    refundsInProgress(user.id, now),
    customerMandates(user.id, { liveOnly: true }),
  ])
  const mandateOf = new Map(mandates.map((mandate) => [mandate.serviceId, mandate]))
  // "Pay again" replaces the cart: what it holds is said beside the button before it is pressed.
  const cart = rejected.length > 0 ? (await pricedCart(await readCart(request))).items : []
  // Read from the entry activeSubscriptions just cached: one read of the customer's subscriptions.
  const recentlyEnded = await recentlyEndedSubscriptions(user.id, now)
  const { bankAccount, whatsappNumber, supportPhone } = businessDetails
  const items = (cart: { serviceId: string; name: string; pricePaise: number }[]) =>
    cart.map((item) => ({ serviceId: item.serviceId, name: item.name, pricePaise: item.pricePaise }))
  const gateway = pending.filter((payment) => payment.method === 'GATEWAY')
  const confirming = gateway.filter((payment) => !unpaid.includes(payment.id))
  const unfinished = gateway.filter((payment) => unpaid.includes(payment.id))
  return {
    pending: pending
      .filter((payment) => payment.method === 'MANUAL')
      .map((payment) => ({
        id: payment.id,
        items: items(payment.cart),
        amountPaise: payment.amountPaise,
        utr: payment.utr,
        payBy: payment.expiresAt ? formatIndiaDate(payment.expiresAt) : null,
      })),
    confirming: confirming.map((payment) => ({
      id: payment.id,
      items: items(payment.cart),
      amountPaise: payment.amountPaise,
    })),
    unfinished: unfinished.map((payment) => ({
      id: payment.id,
      items: items(payment.cart),
      amountPaise: payment.amountPaise,
      startedOn: formatIndiaDate(payment.createdAt),
    })),
    refreshConfirming: confirming.some(
      (payment) => now.getTime() - payment.createdAt.getTime() < CONFIRMING_REFRESH_WINDOW_MS,
    ),
    rejected: rejected.map((claim) => ({
      id: claim.id,
      items: items(claim.cart),
      amountPaise: claim.amountPaise,
      claimedOn: formatIndiaDate(claim.createdAt),
      reason: claim.reason,
      payAgainNotice: payAgainNotice(cart, claim.cart),
    })),
    active: active.map((subscription) => ({
      serviceId: subscription.serviceId,
      name: subscription.name,
      description: subscription.description,
      endsOn: formatIndiaDate(subscription.endsAt),
      renewPath: subscription.onSale ? renewalPath(subscription.serviceId) : null,
      autoRenew: autoRenewOf(mandateOf.get(subscription.serviceId), subscription.onSale),
    })),
    recentlyEnded: recentlyEnded.map((subscription) => ({
      serviceId: subscription.serviceId,
      name: subscription.name,
      endedOn: formatIndiaDate(subscription.endsAt),
      renewPath: subscription.onSale ? renewalPath(subscription.serviceId) : null,
    })),
    refunds: refunds.map((refund) => ({
      id: refund.id,
      serviceName: refund.serviceName,
      amountPaise: refund.amountPaise,
      state: refund.state,
      label: refund.label,
      next: refund.next,
    })),
    infoOpen: url.searchParams.get('dialog') === INFO_DIALOG,
    contactPhone: supportPhone,
    bankAccount,
    whatsappNumber,
    whatsappLink: whatsappHref(whatsappNumber),
  }
}

/** A running service's automatic renewal: its live mandate's state and stop, else the way to turn it on while on sale. */
function autoRenewOf(
  mandate: (Parameters<typeof autoRenewStatusText>[0] & { id: string }) | undefined,
  onSale: boolean,
) {
  if (mandate) return { mandateId: mandate.id, status: autoRenewStatusText(mandate) }
  return onSale ? { mandateId: null, status: null } : null
}

/**
 * The bank transfer reference (UTR) of a pending manual claim: optional, added or corrected here.
 * "Pay again" replaces the cart with a rejected claim's services (the page said so) and goes to /pay.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePayingCustomer(request)
  const formData = await readForm(request)
  if (formData.get('intent') === 'pay-again') {
    const services = await rejectedClaimServices(user.id, String(formData.get('paymentId') ?? ''))
    if (services.length === 0) return redirect('/subscriptions')
    const cart = await serializeCart(services.map((item) => item.serviceId))
    return redirect('/pay', { headers: { 'Set-Cookie': cart } })
  }
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
  const {
    pending,
    confirming,
    unfinished,
    refreshConfirming,
    rejected,
    active,
    recentlyEnded,
    refunds,
    infoOpen,
    contactPhone,
  } = loaderData
  useRecheckWhile(refreshConfirming)
  return (
    <>
      {confirming.length > 0 ? (
        <section
          aria-labelledby="confirming-heading"
          className="mb-6 rounded-lg border border-sky-300 p-4 dark:border-sky-700"
        >
          <h2 id="confirming-heading" className="text-lg font-semibold">
            Payment being confirmed
          </h2>
          <p className="mt-2 text-sm">
            If you paid on the website, we are confirming it with the payment gateway; this usually takes a few minutes.
            Please do not pay again. The subscription starts as soon as it is confirmed.
          </p>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2">
            {confirming.map((payment) => (
              <li key={payment.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <PaymentLines items={payment.items} amountPaise={payment.amountPaise} />
              </li>
            ))}
          </ul>
          <p className="mt-3">
            <Link to={CHECK_AGAIN_URL} className="font-medium text-green-700 underline dark:text-green-400">
              Check again
            </Link>
          </p>
        </section>
      ) : null}
      {unfinished.length > 0 ? (
        <section
          aria-labelledby="unfinished-heading"
          className="mb-6 rounded-lg border border-gray-300 p-4 dark:border-gray-700"
        >
          <h2 id="unfinished-heading" className="text-lg font-semibold">
            Payment not finished
          </h2>
          <p className="mt-2 text-sm">
            You started paying on the website but did not finish. Nothing was paid: you can pay now, on the website or
            by bank transfer.
          </p>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2">
            {unfinished.map((payment) => (
              <li key={payment.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <h3 className="font-semibold">Started on {payment.startedOn}</h3>
                <PaymentLines items={payment.items} amountPaise={payment.amountPaise} />
              </li>
            ))}
          </ul>
          <p className="mt-3">
            <Link to="/pay" className="font-medium text-green-700 underline dark:text-green-400">
              Pay now
            </Link>
          </p>
        </section>
      ) : null}
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
              <li key={payment.id} className="min-w-0 rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <h3 className="font-semibold">Manual Payment</h3>
                <PaymentLines items={payment.items} amountPaise={payment.amountPaise} />
                <TransferInstructions {...loaderData} amountPaise={payment.amountPaise} payBy={payment.payBy} />
                <BankReferenceForm
                  paymentId={payment.id}
                  utr={payment.utr}
                  answer={actionData?.paymentId === payment.id ? actionData : undefined}
                />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {rejected.length > 0 ? (
        <section
          aria-labelledby="rejected-heading"
          className="mb-6 rounded-lg border border-red-300 p-4 dark:border-red-800"
        >
          <h2 id="rejected-heading" className="text-lg font-semibold">
            Rejected payment claims
          </h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2">
            {rejected.map((claim) => {
              const names = claim.items.map((item) => item.name).join(', ')
              return (
                <li key={claim.id} className="min-w-0 rounded-md border border-gray-200 p-3 dark:border-gray-700">
                  <h3 className="font-semibold">Bank transfer claimed on {claim.claimedOn}</h3>
                  <PaymentLines items={claim.items} amountPaise={claim.amountPaise} />
                  <p className="mt-2 text-sm break-words">
                    <span className="font-medium">Reason: </span>
                    {claim.reason ?? 'We could not find this transfer in our account.'}
                  </p>
                  <p className="mt-1 text-sm">Questions? Call us on {contactPhone}.</p>
                  <Form method="post" className="mt-3 space-y-2">
                    <input type="hidden" name="paymentId" value={claim.id} />
                    {claim.payAgainNotice ? (
                      <p id={`pay-again-${claim.id}`} className="text-sm font-medium">
                        {claim.payAgainNotice}
                      </p>
                    ) : null}
                    <StatusButton
                      name="intent"
                      value="pay-again"
                      aria-label={`Pay again for ${names}`}
                      aria-describedby={claim.payAgainNotice ? `pay-again-${claim.id}` : undefined}
                    >
                      Pay again
                    </StatusButton>
                  </Form>
                </li>
              )
            })}
          </ul>
        </section>
      ) : null}
      <h1 className="text-2xl font-semibold">My Subscription(s)</h1>
      {active.length === 0 ? (
        <>
          <p className="mt-4">No active subscriptions</p>
          <p className="mt-2">
            <Link to="/services" className="underline">
              Browse services
            </Link>
          </p>
        </>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {active.map((subscription) => (
            <li key={subscription.serviceId} className="rounded-lg border border-gray-200 p-4 dark:border-gray-700">
              <h2 className="text-lg font-semibold capitalize">{subscription.name}</h2>
              <ServiceDescription lines={subscription.description} className="mt-2" />
              <p className="mt-3 font-medium">Ends on {subscription.endsOn}</p>
              {subscription.autoRenew?.mandateId ? (
                <div className="mt-3 space-y-2 text-sm">
                  <p>{subscription.autoRenew.status}</p>
                  <div className="flex flex-wrap items-center gap-4">
                    <StopAutoRenewForm
                      serviceId={subscription.serviceId}
                      mandateId={subscription.autoRenew.mandateId}
                      serviceName={subscription.name}
                    />
                    <Link
                      to={`/subscriptions/${subscription.serviceId}/auto-renew`}
                      aria-label={`Details of automatic renewal of ${subscription.name}`}
                      className="font-medium text-green-700 underline dark:text-green-400"
                    >
                      Details
                    </Link>
                  </div>
                </div>
              ) : null}
              <p className="mt-3 flex flex-wrap gap-4">
                {subscription.renewPath ? <RenewLink to={subscription.renewPath} name={subscription.name} /> : null}
                {subscription.autoRenew && !subscription.autoRenew.mandateId ? (
                  <Link
                    to={`/subscriptions/${subscription.serviceId}/auto-renew`}
                    aria-label={`Renew automatically: ${subscription.name}`}
                    className="text-sm font-medium text-green-700 underline dark:text-green-400"
                  >
                    Renew automatically
                  </Link>
                ) : null}
                <Link
                  to={`/subscriptions/${subscription.serviceId}/end`}
                  aria-label={`End subscription to ${subscription.name}`}
                  className="text-sm font-medium text-red-700 underline dark:text-red-400"
                >
                  End subscription
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
      {recentlyEnded.length > 0 ? (
        <section aria-labelledby="ended-heading" className="mt-6">
          <h2 id="ended-heading" className="text-lg font-semibold">
            Recently ended
          </h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {recentlyEnded.map((subscription) => (
              <li key={subscription.serviceId} className="rounded-lg border border-gray-200 p-4 dark:border-gray-700">
                <h3 className="font-semibold capitalize">{subscription.name}</h3>
                <p className="mt-2">Ended on {subscription.endedOn}</p>
                {subscription.renewPath ? (
                  <p className="mt-2">
                    <RenewLink to={subscription.renewPath} name={subscription.name} />
                  </p>
                ) : (
                  <p className="mt-2 text-sm">No longer on sale.</p>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {refunds.length > 0 ? (
        <section aria-labelledby="refunds-heading" className="mt-6">
          <h2 id="refunds-heading" className="text-lg font-semibold">
            Refunds
          </h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {refunds.map((refund) => (
              <li
                key={refund.id}
                aria-label={`Refund for ${refund.serviceName}`}
                className="min-w-0 rounded-lg border border-gray-200 p-4 dark:border-gray-700"
              >
                <h3 className="font-semibold break-words capitalize">{refund.serviceName}</h3>
                <p className="mt-2 flex flex-wrap justify-between gap-x-4">
                  <span className="font-medium">Rs. {formatRupees(refund.amountPaise)}</span>
                  <span className={REFUND_STATE_CLASSES[refund.state]}>{refund.label}</span>
                </p>
                <p className="mt-2 text-sm">{refund.next}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="mt-6">
        <Link to="/invoices" className="underline">
          Invoices and credit notes
        </Link>{' '}
        for your payments and refunds.
      </p>
      {infoOpen ? (
        <Modal title="Payment Verification Information" closeTo="/subscriptions">
          <p>
            Our team verifies each payment claim against the bank account. Once it is confirmed, the subscription starts
            and we e-mail you.
          </p>
          <p className="mt-2">
            Not paid yet? Transfer the amount shown on your claim to the account below and send the screenshot on
            WhatsApp.
          </p>
          <BankAccountDetails bankAccount={loaderData.bankAccount} />
          <WhatsAppLine whatsappLink={loaderData.whatsappLink} whatsappNumber={loaderData.whatsappNumber} />
          <p className="mt-2">
            A claim that is not confirmed within {MANUAL_PAYMENT_EXPIRY_DAYS} days is dismissed automatically.
          </p>
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

/** Checks a payment being confirmed again every CONFIRMING_RECHECK_MS while `active` (with JavaScript). */
function useRecheckWhile(active: boolean) {
  const navigate = useNavigate()
  useEffect(() => {
    if (!active) return
    const timer = setTimeout(
      () => void navigate(CHECK_AGAIN_URL, { replace: true, preventScrollReset: true }),
      CONFIRMING_RECHECK_MS,
    )
    return () => clearTimeout(timer)
  })
}

function PaymentLines({
  items,
  amountPaise,
}: {
  items: { serviceId: string; name: string; pricePaise: number }[]
  amountPaise: number
}) {
  return (
    <>
      <ul className="mt-2 space-y-1 text-sm">
        {items.map((item) => (
          <li key={item.serviceId} className="flex justify-between gap-4">
            <span>{item.name}</span>
            <span>Rs. {formatRupees(item.pricePaise)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 font-medium">Total Amount: Rs. {formatRupees(amountPaise)}</p>
    </>
  )
}

/** What a pending claim still needs from the customer: the transfer, to whom, the screenshot, and by when. */
function TransferInstructions({
  amountPaise,
  payBy,
  bankAccount,
  whatsappLink,
  whatsappNumber,
}: {
  amountPaise: number
  payBy: string | null
  bankAccount: BankAccount
  whatsappLink: string
  whatsappNumber: string
}) {
  return (
    <div className="mt-3 space-y-2 border-t border-gray-100 pt-3 text-sm dark:border-gray-800">
      <p>Not paid yet? Transfer Rs. {formatRupees(amountPaise)} to:</p>
      <BankAccountDetails bankAccount={bankAccount} />
      <WhatsAppLine whatsappLink={whatsappLink} whatsappNumber={whatsappNumber} />
      {payBy ? <p className="font-medium">Do both by {payBy}: a claim not confirmed by then is dismissed.</p> : null}
    </div>
  )
}

function WhatsAppLine({ whatsappLink, whatsappNumber }: { whatsappLink: string; whatsappNumber: string }) {
  return (
    <p className="mt-2">
      Send the screenshot of the transfer on{' '}
      <a
        href={whatsappLink}
        rel="noopener noreferrer"
        target="_blank"
        className="font-medium text-green-700 underline dark:text-green-400"
      >
        WhatsApp to {whatsappNumber}
        <span className="sr-only"> (opens WhatsApp in a new tab)</span>
      </a>
      .
    </p>
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
      {saved ? <FormMessage tone="success">Bank reference saved</FormMessage> : null}
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

/** The one-tap renewal of a service, on a running or a recently ended subscription. */
function RenewLink({ to, name }: { to: string; name: string }) {
  return (
    <Link
      to={to}
      aria-label={`Renew ${name}`}
      className="text-sm font-medium text-green-700 underline dark:text-green-400"
    >
      Renew
    </Link>
  )
}
