import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { CheckboxField, Field, FormMessage, repliedField, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { formatIndiaDate } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import {
  endSubscriptionFormSchema,
  PAYING_ACCOUNT_FIELD,
  RefundBankAccountSchema,
  subscriptionEndedFlash,
} from '~/domain/refunds'
import { refundRouteText } from '~/domain/refund-times'
import { isUuid } from '~/domain/uuid'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import {
  BankAccountNeededError,
  endingPreview,
  endSubscription,
  NothingToEndError,
  RefundToOtherAccountError,
} from '~/server/payments/refunds/end-subscription.server'
import type { Route } from './+types/subscriptions.end'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'End subscription') }]

const ALREADY_ENDED = { tone: 'info', message: 'This subscription has already ended.' } as const

async function previewOr404(userId: string, serviceId: string, now: Date) {
  if (!isUuid(serviceId)) throw data('Not found', { status: 404 })
  return endingPreview(userId, serviceId, now)
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const preview = await previewOr404(user.id, params.serviceId, new Date())
  if (!preview) throw await redirectWithFlash('/subscriptions', ALREADY_ENDED)
  return { ...preview, endsAt: undefined, endsOn: formatIndiaDate(preview.endsAt) }
}

/** Ends the customer's own subscription now; a bank-transfer refund needs the account it is paid to. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const formData = await readForm(request)
  const now = new Date()
  const preview = await previewOr404(user.id, params.serviceId, now)
  if (!preview) return redirectWithFlash('/subscriptions', ALREADY_ENDED)
  const typedAccount = ['accountName', 'accountNumber', 'ifsc'].some((name) => String(formData.get(name) ?? '').trim())
  const submission = parseWithZod(formData, {
    schema: endSubscriptionFormSchema({
      payingAccount: preview.payingAccounts.length > 0,
      typedAccount: preview.needsTypedAccount,
    }),
  })
  // A transfer is refunded to the account it came from: an account typed for it is refused, not ignored.
  if (typedAccount && !preview.needsTypedAccount)
    return data({ result: submission.reply({ formErrors: [new RefundToOtherAccountError().message] }) }, 409)
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const account = RefundBankAccountSchema.safeParse(submission.value)
  try {
    const ended = await endSubscription({
      userId: user.id,
      serviceId: params.serviceId,
      by: { kind: 'customer' },
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account.success ? account.data : null,
      payingAccountConfirmed: formData.get(PAYING_ACCOUNT_FIELD) === 'confirmed',
      now,
    })
    return redirectWithFlash('/subscriptions', subscriptionEndedFlash(ended))
  } catch (error) {
    if (error instanceof NothingToEndError) return redirectWithFlash('/subscriptions', ALREADY_ENDED)
    // The refund's route changed between the page and the click (rare): ask for the account.
    if (error instanceof BankAccountNeededError || error instanceof RefundToOtherAccountError)
      return data({ result: submission.reply({ formErrors: [error.message] }) }, 409)
    throw error
  }
}

export default function EndSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const { serviceName, endsOn, refundPaise, gatewayPaise, bankTransferPaise, payingAccounts, needsTypedAccount } =
    loaderData
  const pending = useIsPending()
  const result = actionData?.result
  const field = (name: string) => repliedField(result, name)
  const formErrors = result?.error?.[''] ?? null
  return (
    <section aria-labelledby="end-heading" className="max-w-xl">
      <h1 id="end-heading" className="text-2xl font-semibold">
        End your subscription to {serviceName}?
      </h1>
      <p className="mt-3">
        It runs until {endsOn}. If you end it now, it stops at once and you can no longer see its research.
      </p>
      <h2 className="mt-4 text-lg font-semibold">Your refund</h2>
      {refundPaise === 0 ? (
        <p className="mt-2">No refund is due: no whole day of a paid period is left.</p>
      ) : (
        <>
          <p className="mt-2 text-xl font-semibold">Rs. {formatRupees(refundPaise)}</p>
          <p className="mt-1 text-sm">
            The fee for each whole day left, and any renewal not yet started in full. There is no cancellation charge.
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6">
            {gatewayPaise > 0 ? (
              <li>
                Rs. {formatRupees(gatewayPaise)} {refundRouteText(false)}.
              </li>
            ) : null}
            {bankTransferPaise > 0 ? (
              <li>
                Rs. {formatRupees(bankTransferPaise)}{' '}
                {refundRouteText(
                  true,
                  needsTypedAccount ? 'the account you give below' : 'the account your transfer came from',
                )}
                .
              </li>
            ) : null}
          </ul>
        </>
      )}
      <Form method="post" className="mt-6 space-y-4">
        {formErrors ? <FormMessage tone="error">{formErrors.join(' ')}</FormMessage> : null}
        {payingAccounts.length > 0 ? (
          <fieldset className="space-y-3">
            <legend className="font-semibold">The account your transfer came from</legend>
            <p className="text-sm">
              A bank transfer is refunded to the account it came from, as our bank statement shows it:
            </p>
            <ul className="list-disc pl-6" data-testid="paying-accounts">
              {payingAccounts.map((paying) => (
                <li key={`${paying.utr}-${paying.accountName}`}>
                  {paying.accountName}, the transfer with reference {paying.utr}
                </li>
              ))}
            </ul>
            <CheckboxField
              label={
                payingAccounts.length > 1
                  ? 'Refund to these accounts, which my transfers came from'
                  : 'Refund to this account, which my transfer came from'
              }
              hint="If the account is closed, do not end here: write to us and we will arrange the refund."
              errors={field(PAYING_ACCOUNT_FIELD).errors}
              inputProps={{ name: PAYING_ACCOUNT_FIELD, value: 'confirmed', required: true }}
            />
          </fieldset>
        ) : null}
        {bankTransferPaise > 0 && needsTypedAccount ? (
          <fieldset className="space-y-3">
            <legend className="font-semibold">Bank account for the refund</legend>
            <Field
              label="Account holder name"
              errors={field('accountName').errors}
              inputProps={{
                name: 'accountName',
                autoComplete: 'name',
                required: true,
                maxLength: 100,
                defaultValue: field('accountName').defaultValue,
              }}
            />
            <Field
              label="Account number"
              errors={field('accountNumber').errors}
              inputProps={{
                name: 'accountNumber',
                inputMode: 'numeric',
                autoComplete: 'off',
                required: true,
                maxLength: 24,
                defaultValue: field('accountNumber').defaultValue,
              }}
            />
            <Field
              label="IFSC"
              hint="11 characters, printed on your cheque book, like SBIN0001234."
              errors={field('ifsc').errors}
              inputProps={{
                name: 'ifsc',
                autoComplete: 'off',
                required: true,
                maxLength: 15,
                defaultValue: field('ifsc').defaultValue,
              }}
            />
          </fieldset>
        ) : null}
        <div className="flex flex-wrap items-center gap-4">
          <StatusButton name="intent" value="end" status={pending ? 'pending' : 'idle'}>
            End subscription now
          </StatusButton>
          <Link to="/subscriptions" className="font-medium text-green-700 underline dark:text-green-400">
            Keep my subscription
          </Link>
        </div>
      </Form>
    </section>
  )
}
