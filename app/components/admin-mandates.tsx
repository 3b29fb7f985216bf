import { Form } from 'react-router'
import { FormMessage, StatusButton, TextareaField } from './forms'
import { useIsPending } from './use-is-pending'

export type AdminMandateRow = {
  id: string
  serviceName: string
  live: boolean
  status: string
  createdAt: string
  ended: string | null
}

/** The customer's automatic renewals on the admin's customer page, each live one with its Stop (audited `mandate.cancel`). */
export function AdminMandates({
  mandates,
  reasonMaxLength,
  answer,
}: {
  mandates: AdminMandateRow[]
  reasonMaxLength: number
  answer: { mandateId: string; message: string; ok: boolean } | undefined
}) {
  return (
    <section aria-labelledby="mandates-heading" className="mt-8 max-w-xl">
      <h2 id="mandates-heading" className="text-xl font-semibold">
        Automatic renewals
      </h2>
      {mandates.length === 0 ? (
        <p className="mt-2">None.</p>
      ) : (
        <ul className="mt-2 space-y-4">
          {mandates.map((mandate) => (
            <li key={mandate.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
              <p>
                <span className="font-medium">{mandate.serviceName}</span>: {mandate.status}
              </p>
              <p className="text-sm">
                Turned on {mandate.createdAt}
                {mandate.ended ? `; ${mandate.ended}` : ''}
              </p>
              {answer?.mandateId === mandate.id ? (
                <div className="mt-2">
                  <FormMessage tone={answer.ok ? 'success' : 'error'}>{answer.message}</FormMessage>
                </div>
              ) : null}
              {mandate.live ? <StopForm mandate={mandate} reasonMaxLength={reasonMaxLength} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function StopForm({ mandate, reasonMaxLength }: { mandate: AdminMandateRow; reasonMaxLength: number }) {
  const pending = useIsPending({ fields: { intent: 'mandate-stop', mandateId: mandate.id } })
  return (
    <Form method="post" className="mt-2 space-y-2">
      <input type="hidden" name="mandateId" value={mandate.id} />
      <TextareaField
        label={`Why stop the automatic renewal of ${mandate.serviceName}`}
        textareaProps={{
          id: `mandate-reason-${mandate.id}`,
          name: 'reason',
          required: true,
          maxLength: reasonMaxLength,
          rows: 2,
        }}
      />
      <StatusButton variant="secondary" name="intent" value="mandate-stop" status={pending ? 'pending' : 'idle'}>
        Stop automatic renewal
      </StatusButton>
    </Form>
  )
}
