import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { Field, FormMessage, repliedField, StatusButton, TextareaField } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { indiaIsoDate, indiaMidnight } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import { StopAllServicesFormSchema } from '~/domain/refunds'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { stopAllServices, stopAllServicesPreview } from '~/server/payments/refunds/stop-all-services.server'
import type { Route } from './+types/stop-services'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Stop all services | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return { today: indiaIsoDate(new Date()) }
}

/**
 * Two steps, without JavaScript too: "Review" shows how many subscriptions end and the total
 * refund; "Stop all services" (the same date and reason, sent again) does it.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: StopAllServicesFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), review: null }, 400)
  const effectiveFrom = indiaMidnight(submission.value.effectiveFrom)
  if (formData.get('intent') !== 'confirm') {
    return {
      result: submission.reply(),
      review: { ...submission.value, ...(await stopAllServicesPreview(effectiveFrom)) },
    }
  }
  const stopped = await stopAllServices({ effectiveFrom, reason: submission.value.reason, adminId: admin.id })
  return redirectWithFlash('/admin/refunds', {
    tone: 'success',
    message: `Stopped ${stopped.subscriptions} subscriptions; Rs. ${formatRupees(stopped.refundPaise)} is being refunded.`,
  })
}

export default function StopServices({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsPending()
  const review = actionData?.review
  const date = repliedField(actionData?.result, 'effectiveFrom')
  const reason = repliedField(actionData?.result, 'reason')
  return (
    <section aria-labelledby="stop-heading" className="max-w-xl">
      <h1 id="stop-heading" className="text-2xl font-semibold">
        Stop all services
      </h1>
      <p className="mt-2">
        For a suspended or cancelled registration: every customer&apos;s running subscription ends at the start (00:00
        IST) of the date below, and each gets back the fee for the whole days left after it, with renewals not yet
        started refunded in full. Customers are e-mailed; every ending is audited.
      </p>
      {review ? (
        <Form method="post" className="mt-6 space-y-3">
          <FormMessage tone="info">
            {review.subscriptions} subscriptions of {review.customers} customers will end on {review.effectiveFrom},
            with refunds of Rs. {formatRupees(review.refundPaise)} in all.
          </FormMessage>
          <input type="hidden" name="effectiveFrom" value={review.effectiveFrom} />
          <input type="hidden" name="reason" value={review.reason} />
          <p>Reason: {review.reason}</p>
          <StatusButton name="intent" value="confirm" status={pending ? 'pending' : 'idle'}>
            Stop all services
          </StatusButton>
        </Form>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <Field
            label="Effective from"
            errors={date.errors}
            inputProps={{
              name: 'effectiveFrom',
              type: 'date',
              required: true,
              defaultValue: date.defaultValue ?? loaderData.today,
            }}
          />
          <TextareaField
            label="Reason"
            errors={reason.errors}
            textareaProps={{
              name: 'reason',
              rows: 3,
              required: true,
              maxLength: 500,
              defaultValue: reason.defaultValue,
            }}
          />
          <StatusButton name="intent" value="review" status={pending ? 'pending' : 'idle'}>
            Review
          </StatusButton>
        </Form>
      )}
    </section>
  )
}
