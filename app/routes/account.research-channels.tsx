import { siteTitle } from '~/domain/business-details'
import { data, Link } from 'react-router'
import { FormMessage } from '~/components/forms'
import { ResearchChannelsForm } from '~/components/research-channels-form'
import { formatIndiaDateTime } from '~/domain/dates'
import { TELEGRAM_LINK_TTL_MS } from '~/domain/research-channels'
import { requireUser } from '~/server/auth/sign-in.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { dispatchIntent, readForm } from '~/server/http/form-data.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import { isOutboxEnabled } from '~/server/messaging/outbox.server'
import {
  chooseResearchChannels,
  researchChannelsOf,
  startTelegramLink,
  unlinkTelegram,
} from '~/server/research/channels.server'
import type { Route } from './+types/account.research-channels'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Research channels') }]

export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { channels: await researchChannelsOf(user.id) }
}

type Answer = { deepLink: string; demoStart: string | null } | { message: string }

/** Save the choice, or link (a one-time deep link shown here) or unlink Telegram. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  const form = await readForm(request)
  return dispatchIntent(
    form,
    {
      save: async () => {
        const chosen = await chooseResearchChannels(user.id, {
          email: form.get('email') === 'on',
          sms: form.get('sms') === 'on',
          telegram: form.get('telegram') === 'on',
        })
        const names = [chosen.email && 'e-mail', chosen.sms && 'SMS', chosen.telegram && 'Telegram'].filter(Boolean)
        return redirectWithFlash('/account', {
          tone: 'success',
          message: `Research now reaches you on this site${names.length ? ` and by ${names.join(', ')}` : ' only'}.`,
        })
      },
      'telegram-link': async () => {
        const deepLink = await startTelegramLink(user.id)
        if (!deepLink) return data<Answer>({ message: 'Telegram is not available at the moment.' }, 409)
        const token = new URL(deepLink).searchParams.get('start')!
        return data<Answer>({
          deepLink,
          demoStart: isOutboxEnabled() ? `/dev/telegram/start?start=${encodeURIComponent(token)}` : null,
        })
      },
      'telegram-unlink': async () => {
        await unlinkTelegram(user.id, 'unlinked by the customer')
        return redirectWithFlash('/account', { tone: 'success', message: 'Telegram is unlinked.' })
      },
    },
    () => data<Answer>({ message: 'Choose what to do.' }, 409),
  )
}

export default function ResearchChannels({ loaderData, actionData }: Route.ComponentProps) {
  const { channels } = loaderData
  const answer = actionData as Answer | undefined
  return (
    <section className="mx-auto max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold">How research reaches you</h1>
      {answer && 'message' in answer ? <FormMessage tone="error">{answer.message}</FormMessage> : null}
      {answer && 'deepLink' in answer ? (
        <div className="space-y-2 rounded-md border border-gray-300 p-3 text-sm dark:border-gray-700">
          <p>
            Open this link on a device with Telegram and press Start; it works once, for {TELEGRAM_LINK_TTL_MS / 60_000}{' '}
            minutes:
          </p>
          <p>
            <a href={answer.deepLink} className="break-all underline">
              {answer.deepLink}
            </a>
          </p>
          {answer.demoStart ? (
            <p>
              Demo mode:{' '}
              <Link to={answer.demoStart} className="underline">
                press Start in the fake Telegram
              </Link>
              .
            </p>
          ) : null}
        </div>
      ) : null}
      <ResearchChannelsForm
        channels={channels}
        linkedOn={channels.telegram.linkedAt ? formatIndiaDateTime(new Date(channels.telegram.linkedAt)) : ''}
      />
      <p className="text-sm">
        <Link to="/account" className="underline">
          Back to your data
        </Link>
      </p>
    </section>
  )
}
