import { Form } from 'react-router'
import { StatusButton, TextareaField } from './forms'
import { useIsPending } from './use-is-pending'

/**
 * The admin customer page's "End subscription" for one service: a reason, then the end with its
 * refund (app/routes/admin/customer-end-subscription.ts answers with a flash on this page).
 */
export function AdminEndSubscriptionForm({
  userId,
  serviceId,
  name,
}: {
  userId: string
  serviceId: string
  name: string
}) {
  const pending = useIsPending({
    formAction: `/admin/customers/${userId}/end-subscription`,
    fields: { serviceId },
  })
  return (
    <details className="mt-3 max-w-xl rounded-md border border-gray-200 p-3 dark:border-gray-700">
      <summary className="cursor-pointer font-medium">End subscription to {name}</summary>
      <Form method="post" action={`/admin/customers/${userId}/end-subscription`} className="mt-2 space-y-3">
        <input type="hidden" name="serviceId" value={serviceId} />
        <p className="text-sm">
          Ends it now, with all renewals not yet started. The customer gets back the fee for each whole day left (in
          full for a renewal not yet started), to the card or UPI account used, or as a bank transfer due on the refunds
          page; they are e-mailed. Audited with the reason.
        </p>
        <TextareaField
          label="Reason"
          textareaProps={{ name: 'reason', id: `end-reason-${serviceId}`, rows: 2, required: true, maxLength: 500 }}
        />
        <StatusButton name="intent" value="end-subscription" status={pending ? 'pending' : 'idle'}>
          End subscription to {name}
        </StatusButton>
      </Form>
    </details>
  )
}
