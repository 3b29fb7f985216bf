import { Form } from 'react-router'
import { CheckboxField, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'

/** What /account and /account/research-channels show of the customer's channels (channels.server.ts). */
export type ResearchChannelsView = {
  email: { chosen: boolean; address: string | null }
  sms: { chosen: boolean; available: boolean; phone: string }
  telegram: { chosen: boolean; available: boolean; linkedAt: string | null }
}

const ACTION = '/account/research-channels'

/** The customer's choice of channels for research, and linking Telegram; works without JavaScript. */
export function ResearchChannelsForm({ channels, linkedOn }: { channels: ResearchChannelsView; linkedOn: string }) {
  const saving = useIsPending({ formAction: ACTION, fields: { intent: 'save' } })
  const linking = useIsPending({ formAction: ACTION, fields: { intent: 'telegram-link' } })
  const unlinking = useIsPending({ formAction: ACTION, fields: { intent: 'telegram-unlink' } })
  const { email, sms, telegram } = channels
  const linked = telegram.linkedAt !== null
  return (
    <div className="space-y-3">
      <p className="text-sm">
        Every item we send you is always on this site, under Research. Choose where else it reaches you:
      </p>
      <Form method="post" action={ACTION} className="space-y-2">
        <CheckboxField
          label="By e-mail (the whole item)"
          hint={
            email.address ? 'To the e-mail address in your profile.' : 'Add an e-mail address to your profile first.'
          }
          inputProps={{ name: 'email', id: 'channel-email', defaultChecked: email.chosen, disabled: !email.address }}
        />
        <CheckboxField
          label="By SMS (a short notice with a link)"
          hint={sms.available ? 'To your mobile number.' : 'Research is not sent by SMS at the moment.'}
          inputProps={{ name: 'sms', id: 'channel-sms', defaultChecked: sms.chosen, disabled: !sms.available }}
        />
        <CheckboxField
          label="On Telegram (a summary with a link, or the whole of a short item)"
          hint={linked ? `Linked on ${linkedOn}` : 'Link Telegram below first.'}
          inputProps={{ name: 'telegram', id: 'channel-telegram', defaultChecked: telegram.chosen, disabled: !linked }}
        />
        <StatusButton name="intent" value="save" status={saving ? 'pending' : 'idle'}>
          Save my research channels
        </StatusButton>
      </Form>
      {telegram.available ? (
        <Form method="post" action={ACTION}>
          {linked ? (
            <StatusButton
              name="intent"
              value="telegram-unlink"
              variant="secondary"
              status={unlinking ? 'pending' : 'idle'}
            >
              Unlink Telegram
            </StatusButton>
          ) : (
            <StatusButton name="intent" value="telegram-link" variant="secondary" status={linking ? 'pending' : 'idle'}>
              Link Telegram
            </StatusButton>
          )}
        </Form>
      ) : null}
    </div>
  )
}
