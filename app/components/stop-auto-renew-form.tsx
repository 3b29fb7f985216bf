import { Form } from 'react-router'
import { StatusButton } from './forms'
import { useIsPending } from './use-is-pending'

/** "Stop automatic renewal": a POST form, so it works without JavaScript (subscriptions.auto-renew.tsx does it). */
export function StopAutoRenewForm({
  serviceId,
  mandateId,
  serviceName,
}: {
  serviceId: string
  mandateId: string
  serviceName: string
}) {
  const action = `/subscriptions/${serviceId}/auto-renew`
  const stopping = useIsPending({ formAction: action, fields: { mandateId } })
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="mandateId" value={mandateId} />
      <StatusButton
        variant="secondary"
        name="intent"
        value="stop"
        aria-label={`Stop automatic renewal of ${serviceName}`}
        status={stopping ? 'pending' : 'idle'}
      >
        Stop automatic renewal
      </StatusButton>
    </Form>
  )
}
