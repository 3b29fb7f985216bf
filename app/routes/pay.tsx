import { siteTitle } from '~/domain/business-details'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef, useState, type MouseEvent } from 'react'
import {
  data,
  Form,
  Link,
  type ShouldRevalidateFunctionArgs,
  redirect,
  useFetcher,
  useNavigation,
  useRevalidator,
} from 'react-router'
import { Field, FormMessage, repliedField, Spinner, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { ResultMessage } from '~/components/result-message'
import { BankAccountDetails } from '~/components/bank-account-details'
import { Modal } from '~/components/modal'
import { ServiceDescription, ServiceRiskAndDelivery } from '~/components/service-description'
import { useGatewayCheckout, type CheckoutFailure } from '~/components/use-gateway-checkout'
import { ManualPaymentFormSchema } from '~/domain/bank-reference'
import { PAYER_ACCOUNT_NAME_MAX_LENGTH } from '~/domain/payer-account-name'
import { cartTotalPaise, shownCartValue } from '~/domain/cart'
import { CheckoutAnswerSchema, type CheckoutAnswer } from '~/domain/checkout-request'
import {
  CHECKOUT_OUTCOME_MESSAGES,
  checkoutMessageTone,
  checkoutOutcome,
  PAYMENT_START_FAILED_MESSAGE,
  PAYMENT_VERIFY_FAILED_MESSAGE,
  type GatewayCheckout,
} from '~/domain/gateway-checkout'
import { gstIncludedText } from '~/domain/gst'
import { SEBI_CHECK_URL } from '~/domain/upi-handle'
import { formatPriceLine, formatRupees } from '~/domain/money'
import { requirePayingCustomer } from '~/server/auth/sign-in.server'
import { businessDetails } from '~/server/business.server'
import { env } from '~/server/env.server'
import {
  cartChangeSinceShown,
  pricedCart,
  readCart,
  removeServiceFromCart,
  serializeCart,
} from '~/server/payments/cart.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { dispatchIntent, readForm } from '~/server/http/form-data.server'
import { gatewayCheckout } from '~/server/payments/gateway/checkout-options.server'
import {
  closeGatewayCheckout,
  recordGatewayFailure,
  startGatewayPayment,
  verifyCheckoutPayment,
} from '~/server/payments/checkout.server'
import { claimRecordedFlash, paymentConfirmationFlash } from '~/server/payments/confirmation.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { advanceLimitFor, feeCapFor, kycRefusalFor } from '~/server/payments/purchase-limits.server'
import { paymentRefusal } from '~/server/payments/core.server'
import type { SessionUser } from '~/server/session.server'
import { getActiveServices } from '~/server/catalog/services.server'
import type { Route } from './+types/pay'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Payment') }]

const MANUAL_DIALOG = 'manual'
/** The KYC refusal's paragraph, which the disabled pay buttons name as the reason they are disabled. */
const KYC_REFUSAL_ID = 'kyc-refusal'
/** The original store's alert (docs/product.md section 8), with the reason after it. */
const MANUAL_PAYMENT_FAILED = 'Error creating manual payment record'

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('Set-Cookie') ? actionHeaders : loaderHeaders
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePayingCustomer(request)
  const { items, droppedIds } = await pricedCart(await readCart(request))
  const cleanedCart = droppedIds.length
    ? { 'Set-Cookie': await serializeCart(items.map((item) => item.serviceId)) }
    : undefined
  if (items.length === 0) throw redirect('/services', { headers: cleanedCart })
  const listings = new Map((await getActiveServices()).map((service) => [service.id, service]))
  const { bankAccount, whatsappNumber } = businessDetails
  // Said before paying: a service the one-year advance limit stops for now, and the refusals a payment would get.
  const now = new Date()
  const [advanceLimit, feeCapRefusal, kycRefusal] = await Promise.all([
    advanceLimitFor(user.id, items, now),
    feeCapFor(user.id, items, now),
    kycRefusalFor(undefined, user.id),
  ])
  return data(
    {
      items: items.map((item) => ({
        ...item,
        description: listings.get(item.serviceId)?.description ?? [],
        riskLevel: listings.get(item.serviceId)?.riskLevel ?? null,
        delivery: listings.get(item.serviceId)?.delivery ?? null,
        renewableFrom: advanceLimit.renewableFrom[item.serviceId],
        period: advanceLimit.periods[item.serviceId] ?? null,
      })),
      advanceRefusal: advanceLimit.refusal,
      feeCapRefusal,
      kycRefusal,
      totalPaise: cartTotalPaise(items),
      // Sent back with a payment, so a cart changed meanwhile is explained precisely.
      shownCart: shownCartValue(items),
      droppedCount: droppedIds.length,
      manualOpen: new URL(request.url).searchParams.get('dialog') === MANUAL_DIALOG,
      // How a hosted checkout that did not pay ended (/payments/callback and /payments/cancel send it).
      outcome: checkoutOutcome(new URL(request.url).searchParams.get('outcome')),
      // One key per rendering of the form: a double click submits it twice, and makes one claim.
      manualPaymentKey: crypto.randomUUID(),
      bankAccount,
      // SEBI's validated UPI handle, when the analyst has one (app/server/env.server.ts).
      upiHandle: env.UPI_VALID_HANDLE ?? null,
      // Prices include GST: when the business is GST-registered, the page shows how much of the total it is.
      gstRateBasisPoints: businessDetails.gst?.rateBasisPoints ?? null,
      whatsappLink: `https://wa.me/${whatsappNumber.replace(/\D/g, '')}`,
      whatsappNumber,
    },
    { headers: cleanedCart },
  )
}

/** A payment refused because the cart changed (409) re-reads the cart, so the page shows the cart it now holds. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePayingCustomer(request)
  const form = await readForm(request)
  return dispatchIntent(
    form,
    {
      remove: () => removeFromCart(request, form),
      gateway: () => payOnWebsite(request, form, user),
      // The checkout's answers, sent by the page's script (useGatewayCheckout).
      verify: () => confirmCheckout(form, user.id, 'verify'),
      reverify: () => confirmCheckout(form, user.id, 'reverify'),
      failed: async () => {
        await recordGatewayFailure({
          orderId: field(form, 'orderId'),
          reason: field(form, 'reason') || 'Payment failed',
          userId: user.id,
        })
        return data({ outcome: 'failed' as const })
      },
      cancel: async () => data({ outcome: await closeGatewayCheckout(user.id, field(form, 'orderId')) }),
      manual: () => claimBankTransfer(request, form, user.id),
    },
    () => data({ error: 'Something was missing from the form. Please try again.' }, 400),
  )
}

async function removeFromCart(request: Request, form: FormData) {
  const { ids, setCookie } = await removeServiceFromCart(request, field(form, 'serviceId'))
  return redirect(ids.length ? '/pay' : '/services', { headers: { 'Set-Cookie': setCookie } })
}

async function payOnWebsite(request: Request, form: FormData, user: SessionUser) {
  const changed = await cartChangeSinceShown(request, field(form, 'shownCart'))
  if (changed) return data({ error: changed }, 409)
  const cart = await readCart(request)
  try {
    const started = await startGatewayPayment(user.id, cart, { expectedAmountPaise: shownTotalPaise(form) })
    return data({ checkout: gatewayCheckout(user, started, cart, request.url) })
  } catch (error) {
    const refusal = paymentRefusal(error)
    return refusal
      ? data({ error: refusal.message }, refusal.status)
      : data({ error: PAYMENT_START_FAILED_MESSAGE }, 500)
  }
}

async function confirmCheckout(form: FormData, userId: string, intent: 'verify' | 'reverify') {
  const answer = CheckoutAnswerSchema.safeParse(Object.fromEntries(form))
  if (!answer.success) return data({ verifyFailed: intent }, 400)
  try {
    const result = await verifyCheckoutPayment(answer.data, {
      source: intent === 'verify' ? 'checkout' : 'reverify',
      userId,
    })
    // A redirect, so the fetcher's page moves on and the confirmation survives it (a flash message).
    const emptyCart = { headers: { 'Set-Cookie': await serializeCart([]) } }
    const confirmation = result.status === 'paid' ? await paymentConfirmationFlash(result.paymentId) : null
    return confirmation
      ? redirectWithFlash('/subscriptions?from=payment', confirmation, emptyCart)
      : redirect('/subscriptions?from=payment', emptyCart)
  } catch (error) {
    paymentRefusal(error) // logs what is not a payment's refusal
    return data({ verifyFailed: intent }, 400)
  }
}

async function claimBankTransfer(request: Request, form: FormData, userId: string) {
  const changed = await cartChangeSinceShown(request, field(form, 'shownCart'))
  if (changed) return data({ error: changed }, 409)
  // Parsed on the server only: /pay's JavaScript carries neither Zod nor Conform.
  const submission = parseWithZod(form, { schema: ManualPaymentFormSchema })
  if (submission.status !== 'success') return data({ manualResult: submission.reply() }, 400)
  let claim
  try {
    claim = await createManualPayment(userId, await readCart(request), {
      idempotencyKey: submission.value.paymentKey || undefined,
      utr: submission.value.utr,
      payerAccountName: submission.value.payerAccountName,
      expectedAmountPaise: shownTotalPaise(form),
    })
  } catch (error) {
    const refusal = paymentRefusal(error)
    return refusal
      ? data({ error: `${MANUAL_PAYMENT_FAILED}: ${refusal.message}` }, refusal.status)
      : data({ error: MANUAL_PAYMENT_FAILED }, 500)
  }
  return redirectWithFlash('/subscriptions?from=payment', claimRecordedFlash(claim), {
    headers: { 'Set-Cookie': await serializeCart([]) },
  })
}

/**
 * The checkout's answer is sent by the page's script: when it cannot reach us (a network drop just
 * after paying), the payment may be paid all the same, so the customer goes to /subscriptions,
 * which asks the gateway and shows it as being confirmed, instead of an error page.
 */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = (await request.clone().formData()).get('intent')
  try {
    return await serverAction()
  } catch (error) {
    if (error instanceof Response || (intent !== 'verify' && intent !== 'reverify')) throw error
    // In the browser: the SPEC logs such errors to the browser's console (docs/product.md, "Error catalogue").
    // eslint-disable-next-line no-console
    console.error(error)
    return redirect('/subscriptions?from=payment')
  }
}

function field(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/** The total the page showed, which both ways to pay send (and the API's `amount`): a changed price refuses the payment. */
function shownTotalPaise(form: FormData): number | undefined {
  const value = form.get('shownTotalPaise')
  const shown = typeof value === 'string' && value !== '' ? Number(value) : Number.NaN
  return Number.isSafeInteger(shown) ? shown : undefined
}

export default function Pay({ loaderData, actionData }: Route.ComponentProps) {
  const {
    items,
    totalPaise,
    gstRateBasisPoints,
    shownCart,
    droppedCount,
    manualOpen,
    outcome,
    advanceRefusal,
    feeCapRefusal,
    kycRefusal,
  } = loaderData
  const navigating = useIsPending()
  const removing = useIsPending({ fields: { intent: 'remove' } })
  const navigation = useNavigation()
  const removingId = navigation.formData?.get('serviceId')
  // "Pay Manually" pressed: the dialog's page is on its way.
  const openingManual =
    navigation.state === 'loading' &&
    navigation.location.pathname === '/pay' &&
    new URLSearchParams(navigation.location.search).get('dialog') === MANUAL_DIALOG
  const website = usePayOnWebsite(totalPaise, shownCart)
  const busy = navigating || website.busy || openingManual
  // A customer whose KYC does not allow paying cannot pay either way: the buttons say so.
  const refusedBy = kycRefusal ? KYC_REFUSAL_ID : undefined
  useRevalidateOnReturn(!busy)
  const hostedCheckout = actionData && 'checkout' in actionData ? actionData.checkout : undefined
  if (hostedCheckout) return <HostedCheckoutForm checkout={hostedCheckout} />
  const actionError = actionData && 'error' in actionData ? actionData.error : undefined
  const message = website.message ?? (outcome ? CHECKOUT_OUTCOME_MESSAGES[outcome] : undefined)
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">Payment</h1>
      <div className="mt-4 space-y-4">
        {droppedCount > 0 ? (
          <FormMessage tone="info">Services no longer available were removed from your cart.</FormMessage>
        ) : null}
        {actionError && !manualOpen ? (
          <ResultMessage tone="error" answer={actionData}>
            {actionError}
          </ResultMessage>
        ) : null}
        {advanceRefusal && !actionError ? <FormMessage tone="info">{advanceRefusal}</FormMessage> : null}
        {feeCapRefusal && !actionError ? <FormMessage tone="info">{feeCapRefusal}</FormMessage> : null}
        {kycRefusal ? (
          <div id={KYC_REFUSAL_ID}>
            <FormMessage tone="info">
              {kycRefusal}{' '}
              <Link to="/account/corrections" className="underline">
                What to do about your KYC
              </Link>
            </FormMessage>
          </div>
        ) : null}
        {message && !actionError ? (
          <ResultMessage tone={checkoutMessageTone(message)} answer={message}>
            {message}
          </ResultMessage>
        ) : null}
        <details open className="rounded-lg border border-gray-200 p-4 dark:border-gray-700">
          <summary className="cursor-pointer text-lg font-semibold">Selected Service(s)</summary>
          <ul className="mt-3 space-y-4">
            {items.map((item) => (
              <li
                key={item.serviceId}
                className="flex items-start justify-between gap-4 border-t border-gray-100 pt-3 first:border-0 first:pt-0 dark:border-gray-800"
              >
                <div>
                  <h2 className="font-semibold">{item.name}</h2>
                  <ServiceDescription lines={item.description} className="mt-1" />
                  {item.riskLevel && item.delivery ? (
                    <ServiceRiskAndDelivery riskLevel={item.riskLevel} delivery={item.delivery} className="mt-1" />
                  ) : null}
                  <p className="mt-1 font-medium">{formatPriceLine(item.pricePaise, item.durationDays)}</p>
                  {item.renewableFrom ? <p className="mt-1 text-sm font-medium">{item.renewableFrom}</p> : null}
                  {item.period ? <p className="mt-1 text-sm">{item.period}</p> : null}
                </div>
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="serviceId" value={item.serviceId} />
                  <StatusButton
                    name="intent"
                    value="remove"
                    disabled={busy}
                    status={removing && removingId === item.serviceId ? 'pending' : 'idle'}
                    className="inline-flex items-center gap-2 rounded-md border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800"
                    aria-label={`Remove ${item.name}`}
                  >
                    Remove
                  </StatusButton>
                </Form>
              </li>
            ))}
          </ul>
        </details>
        <div>
          <p className="text-lg font-semibold">Total: Rs. {formatRupees(totalPaise)}</p>
          {gstRateBasisPoints ? (
            <p className="text-sm text-gray-700 dark:text-gray-300">
              {gstIncludedText(totalPaise, gstRateBasisPoints)}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col items-stretch gap-3 sm:flex-row sm:items-center">
          <Form method="post" className="flex">
            <input type="hidden" name="shownTotalPaise" value={totalPaise} />
            <input type="hidden" name="shownCart" value={shownCart} />
            <StatusButton
              name="intent"
              value="gateway"
              disabled={busy || Boolean(refusedBy)}
              aria-describedby={refusedBy}
              status={website.busy ? 'pending' : 'idle'}
              onClick={website.start}
              className="inline-flex w-full items-center justify-center gap-2 rounded-md bg-green-700 px-4 py-2 font-semibold text-white hover:bg-green-800 disabled:opacity-60"
            >
              Pay on Website
            </StatusButton>
          </Form>
          <p className="text-center font-semibold" aria-hidden="true">
            OR
          </p>
          {busy || refusedBy ? (
            // While a payment is on its way the other way to pay cannot be opened (one payment at a time).
            <span
              role="link"
              aria-disabled="true"
              aria-describedby={refusedBy}
              aria-busy={openingManual || undefined}
              className="inline-flex items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2 text-center font-semibold text-white opacity-60"
            >
              {openingManual ? <Spinner /> : null}
              Pay Manually
            </span>
          ) : (
            <Link
              to={`?dialog=${MANUAL_DIALOG}`}
              preventScrollReset
              className="rounded-md bg-red-700 px-4 py-2 text-center font-semibold text-white hover:bg-red-800"
            >
              Pay Manually
            </Link>
          )}
        </div>
        <p role="status" className="sr-only">
          {busy ? 'Working…' : ''}
        </p>
      </div>
      {manualOpen && !refusedBy ? (
        <ManualPaymentDialog
          {...loaderData}
          error={actionError}
          manualResult={actionData && 'manualResult' in actionData ? actionData.manualResult : undefined}
          busy={busy}
        />
      ) : null}
    </section>
  )
}

function ManualPaymentDialog({
  totalPaise,
  gstRateBasisPoints,
  bankAccount,
  upiHandle,
  whatsappLink,
  whatsappNumber,
  manualPaymentKey,
  error,
  manualResult,
  shownCart,
  busy,
}: Route.ComponentProps['loaderData'] & {
  error: string | undefined
  manualResult: SubmissionResult<string[]> | undefined
  busy: boolean
}) {
  const utr = repliedField(manualResult, 'utr')
  const payerAccountName = repliedField(manualResult, 'payerAccountName')
  const claiming = useIsPending({ fields: { intent: 'manual' } })
  return (
    <Modal title="Manual Payment Instructions" closeTo="/pay">
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <ol className="mt-2 list-decimal space-y-2 pl-6">
        <li>
          Transfer Rs. {formatRupees(totalPaise)} to our bank account.
          {gstRateBasisPoints ? ` ${gstIncludedText(totalPaise, gstRateBasisPoints)}.` : null}
        </li>
        <li>
          <BankAccountDetails bankAccount={bankAccount} />
          {upiHandle ? (
            <p className="mt-2">
              Or pay by UPI to <span className="font-mono font-semibold break-all">{upiHandle}</span>, our UPI handle
              validated by SEBI. Before you pay, check it is ours on{' '}
              <a
                href={SEBI_CHECK_URL}
                rel="noopener noreferrer"
                target="_blank"
                className="font-medium text-green-700 underline dark:text-green-400"
              >
                SEBI Check
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
              .
            </p>
          ) : null}
        </li>
        <li>
          Take a screenshot of the transfer and send it on WhatsApp to{' '}
          <a
            href={whatsappLink}
            rel="noopener noreferrer"
            target="_blank"
            className="font-medium text-green-700 underline dark:text-green-400"
          >
            {whatsappNumber}
            <span className="sr-only"> (opens WhatsApp in a new tab)</span>
          </a>
          .
        </li>
        <li>You will get a confirmation e-mail once we have confirmed your payment.</li>
      </ol>
      <Form method="post" className="mt-4 space-y-3">
        <input type="hidden" name="paymentKey" value={manualPaymentKey} />
        <input type="hidden" name="shownTotalPaise" value={totalPaise} />
        <input type="hidden" name="shownCart" value={shownCart} />
        <Field
          label="Bank transfer reference (UTR), if you have it"
          hint="Optional. You can also add it later on your subscriptions page."
          errors={utr.errors}
          inputProps={{ id: 'utr', name: 'utr', maxLength: 40, autoComplete: 'off', defaultValue: utr.defaultValue }}
        />
        <Field
          label="Name on the account you pay from"
          hint="Optional. It helps our team find your transfer on the bank statement."
          errors={payerAccountName.errors}
          inputProps={{
            id: 'payerAccountName',
            name: 'payerAccountName',
            maxLength: PAYER_ACCOUNT_NAME_MAX_LENGTH,
            autoComplete: 'name',
            defaultValue: payerAccountName.defaultValue,
          }}
        />
        <StatusButton
          name="intent"
          value="manual"
          disabled={busy}
          status={claiming ? 'pending' : 'idle'}
          className="inline-flex w-full items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          I'll Pay &amp; Send Screenshot
        </StatusButton>
      </Form>
    </Modal>
  )
}

/**
 * "Pay on Website" with JavaScript (the original store's flow, docs/product.md section 4): start the payment, open the
 * checkout, verify its answer (re-verify when that fails), and go to /subscriptions; a failure or a
 * dismissed checkout is reported and said on the page, with the cart kept.
 */
function usePayOnWebsite(totalPaise: number, shownCart: string) {
  const starter = useFetcher<typeof action>({ key: 'gateway-start' })
  const reporter = useFetcher<typeof action>({ key: 'gateway-report' })
  const openCheckout = useGatewayCheckout()
  const [checkoutOpen, setCheckoutOpen] = useState(false)
  const [message, setMessage] = useState<string | undefined>()
  const lastSuccess = useRef<CheckoutAnswer | null>(null)
  const handled = useRef(new WeakSet<object>())

  useEffect(() => {
    const answer = starter.data
    if (starter.state !== 'idle' || !answer || handled.current.has(answer)) return
    handled.current.add(answer)
    // The effects below answer the fetchers' replies, which arrive from outside React: what the page
    // says about them is state set here.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if ('error' in answer) return setMessage(answer.error)
    if (!('checkout' in answer)) return
    const { orderId } = answer.checkout
    setCheckoutOpen(true)
    openCheckout(answer.checkout, {
      onPaid(response) {
        setCheckoutOpen(false)
        lastSuccess.current = response
        void reporter.submit({ intent: 'verify', ...response }, { method: 'post' })
      },
      onFailed(response: CheckoutFailure) {
        void reporter.submit(
          { intent: 'failed', orderId, reason: response.error?.description ?? '' },
          { method: 'post' },
        )
      },
      onDismissed() {
        setCheckoutOpen(false)
        void reporter.submit({ intent: 'cancel', orderId }, { method: 'post' })
      },
    }).catch((error: unknown) => {
      // In the browser, as above.
      // eslint-disable-next-line no-console
      console.error(error)
      setCheckoutOpen(false)
      setMessage(PAYMENT_START_FAILED_MESSAGE)
    })
  }, [starter.state, starter.data, reporter, openCheckout])

  useEffect(() => {
    const answer = reporter.data
    if (reporter.state !== 'idle' || !answer || handled.current.has(answer)) return
    handled.current.add(answer)
    // A verified answer is a redirect to /subscriptions, which the router follows.
    if ('verifyFailed' in answer) {
      if (answer.verifyFailed === 'verify' && lastSuccess.current) {
        void reporter.submit({ intent: 'reverify', ...lastSuccess.current }, { method: 'post' })
      } else {
        setMessage(PAYMENT_VERIFY_FAILED_MESSAGE)
      }
    } else if ('outcome' in answer) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- as above
      setMessage(CHECKOUT_OUTCOME_MESSAGES[answer.outcome])
    }
  }, [reporter.state, reporter.data, reporter])

  return {
    busy: starter.state !== 'idle' || reporter.state !== 'idle' || checkoutOpen,
    message,
    start(event: MouseEvent) {
      event.preventDefault()
      setMessage(undefined)
      void starter.submit({ intent: 'gateway', shownTotalPaise: totalPaise, shownCart }, { method: 'post' })
    },
  }
}

/**
 * Re-reads the cart when the customer comes back to this tab (the cart may have changed in
 * another), unless a payment is on its way.
 */
function useRevalidateOnReturn(enabled: boolean) {
  const { revalidate } = useRevalidator()
  useEffect(() => {
    if (!enabled) return
    const onReturn = () => {
      if (document.visibilityState === 'visible') void revalidate()
    }
    document.addEventListener('visibilitychange', onReturn)
    return () => document.removeEventListener('visibilitychange', onReturn)
  }, [enabled, revalidate])
}

/**
 * "Pay on Website" without JavaScript: the order exists, and this form takes the customer to the
 * gateway's hosted checkout, which comes back to /payments/callback (paid or failed) or
 * /payments/cancel (Hosted Checkout, docs/payments.md).
 */
function HostedCheckoutForm({ checkout }: { checkout: GatewayCheckout }) {
  const fields: [string, string][] = [
    ['key_id', checkout.keyId],
    ['order_id', checkout.orderId],
    ['amount', String(checkout.amountPaise)],
    ['currency', checkout.currency],
    ['name', checkout.name],
    ['description', checkout.description],
    ['prefill[name]', checkout.prefill.name],
    ['prefill[email]', checkout.prefill.email],
    ['prefill[contact]', checkout.prefill.contact],
    ['callback_url', checkout.callbackUrl],
    ['cancel_url', checkout.cancelUrl],
  ]
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">Payment</h1>
      <p className="mt-4">
        Rs. {formatRupees(checkout.amountPaise)} will be paid through our payment gateway. Its page opens next; when you
        have paid, it brings you back here.
      </p>
      <form method="post" action={checkout.hostedCheckoutUrl} className="mt-4">
        {fields.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <StatusButton>Continue to payment</StatusButton>
      </form>
      <p className="mt-4">
        <Link to="/pay" className="underline">
          Back to your cart
        </Link>
      </p>
    </section>
  )
}
