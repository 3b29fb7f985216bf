import { data, Form, Link, redirect } from 'react-router'
import { CheckboxField, FormMessage, StatusButton } from '~/components/forms'
import { StopAutoRenewForm } from '~/components/stop-auto-renew-form'
import { useIsPending } from '~/components/use-is-pending'
import { autoRenewStatusText, autoRenewStoppedMessage } from '~/domain/auto-renew-status'
import { siteTitle } from '~/domain/business-details'
import { isUuid } from '~/domain/uuid'
import { requireCompleteProfile, requirePayingCustomer } from '~/server/auth/sign-in.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import {
  authorisationUrl,
  consentOffer,
  liveMandateOf,
  pendingAuthorisationUrl,
  stopOwnAutoRenew,
} from '~/server/payments/auto-renew.server'
import { GatewayError } from '~/server/payments/gateway/razorpay.server'
import { MandateError, turnOnAutoRenew } from '~/server/payments/mandates.server'
import type { Route } from './+types/subscriptions.auto-renew'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Renew automatically') }]

/** The box the customer ticks to give the separate consent; its value is checked, not only its presence. */
const CONSENT_FIELD = 'consent'
const CONSENT_GIVEN = 'authorised'
const SHA256_HEX = /^[0-9a-f]{64}$/

function serviceIdOr404(serviceId: string): string {
  if (!isUuid(serviceId)) throw data('Not found', { status: 404 })
  return serviceId
}

/**
 * "Renew automatically" for a service the customer holds (docs/payments.md, "Renewals and
 * mandates"): its live mandate's state, else the exact consent to give, else why it cannot be
 * turned on now. Also where the sandbox's authorisation page comes back to.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const serviceId = serviceIdOr404(params.serviceId)
  const url = new URL(request.url)
  const mandate = await liveMandateOf(user.id, serviceId)
  if (mandate) {
    return {
      kind: 'mandate' as const,
      serviceId,
      serviceName: mandate.serviceName,
      mandateId: mandate.id,
      state: mandate.state,
      status: autoRenewStatusText(mandate),
      authoriseUrl: await pendingAuthorisationUrl(mandate, { origin: url.origin, returnTo: url.pathname }),
    }
  }
  try {
    const offer = await consentOffer(user.id, serviceId)
    return {
      kind: 'offer' as const,
      serviceName: offer.serviceName,
      consentLines: offer.consentText.split('\n'),
      consentSha256: offer.consentSha256,
    }
  } catch (error) {
    if (!(error instanceof MandateError)) throw error
    if (error.status === 404) throw data('Not found', { status: 404 })
    return { kind: 'refused' as const, message: error.message }
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const serviceId = serviceIdOr404(params.serviceId)
  const form = await readForm(request)
  const intent = form.get('intent')
  // Stopping never waits on new terms or consents: it only takes a permission away.
  if (intent === 'stop') {
    const result = await stopOwnAutoRenew(user.id, String(form.get('mandateId') ?? ''))
    if (!result) throw data('Not found', { status: 404 })
    return redirectWithFlash('/subscriptions', {
      tone: result.stopped ? 'success' : 'info',
      message: autoRenewStoppedMessage(result.serviceName, result.stopped),
    })
  }
  if (intent !== 'turn-on')
    return data({ error: 'Choose "Turn on automatic renewal" or "Stop automatic renewal".' }, 400)
  await requirePayingCustomer(request)
  if (form.get(CONSENT_FIELD) !== CONSENT_GIVEN)
    return data({ error: 'Tick the box to give your consent: automatic renewal is not turned on without it.' }, 400)
  const shown = String(form.get('consentSha256') ?? '')
  if (!SHA256_HEX.test(shown))
    return data({ error: 'The terms of automatic renewal have changed. Please read them again and confirm.' }, 400)
  const url = new URL(request.url)
  try {
    const started = await turnOnAutoRenew(user.id, serviceId, {
      shownSha256: shown,
      origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'PAGE' },
    })
    const next = authorisationUrl(
      { id: started.gatewaySubscriptionId, shortUrl: started.shortUrl },
      { origin: url.origin, returnTo: url.pathname },
    )
    return next ? redirect(next, 303) : redirect(url.pathname, 303)
  } catch (error) {
    if (error instanceof MandateError) return data({ error: error.message }, { status: error.status })
    if (error instanceof GatewayError)
      return data(
        { error: 'The payment gateway did not answer. Nothing was set up: please try again in a moment.' },
        { status: 503 },
      )
    throw error
  }
}

export default function AutoRenew({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.error
  if (loaderData.kind === 'refused') {
    return (
      <section aria-labelledby="auto-renew-heading" className="max-w-xl">
        <h1 id="auto-renew-heading" className="text-2xl font-semibold">
          Automatic renewal is not available
        </h1>
        <div className="mt-4">
          <FormMessage tone="error">{loaderData.message}</FormMessage>
        </div>
        <p className="mt-4">
          <Link to="/subscriptions" className="font-medium text-green-700 underline dark:text-green-400">
            Back to your subscriptions
          </Link>
        </p>
      </section>
    )
  }
  if (loaderData.kind === 'mandate') {
    return (
      <section aria-labelledby="auto-renew-heading" className="max-w-xl">
        <h1 id="auto-renew-heading" className="text-2xl font-semibold">
          Automatic renewal of {loaderData.serviceName}
        </h1>
        {error ? (
          <div className="mt-4">
            <FormMessage tone="error">{error}</FormMessage>
          </div>
        ) : null}
        <p className="mt-4" data-testid="auto-renew-status">
          {loaderData.status}
        </p>
        {loaderData.authoriseUrl ? (
          <p className="mt-4">
            <a
              href={loaderData.authoriseUrl}
              className="inline-flex rounded-md bg-green-700 px-4 py-2 font-semibold text-white"
            >
              Authorise at the payment gateway
            </a>
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <StopAutoRenewForm
            serviceId={loaderData.serviceId}
            mandateId={loaderData.mandateId}
            serviceName={loaderData.serviceName}
          />
          <Link to="/subscriptions" className="font-medium text-green-700 underline dark:text-green-400">
            Back to your subscriptions
          </Link>
        </div>
      </section>
    )
  }
  return <ConsentForm {...loaderData} error={error} />
}

function ConsentForm({
  serviceName,
  consentLines,
  consentSha256,
  error,
}: {
  serviceName: string
  consentLines: string[]
  consentSha256: string
  error: string | undefined
}) {
  const pending = useIsPending({ fields: { intent: 'turn-on' } })
  return (
    <section aria-labelledby="auto-renew-heading" className="max-w-xl">
      <h1 id="auto-renew-heading" className="text-2xl font-semibold">
        Renew {serviceName} automatically
      </h1>
      <p className="mt-3">
        Read what you authorise. After you confirm, the payment gateway asks you to approve the mandate (UPI AutoPay,
        card or e-mandate).
      </p>
      <h2 className="mt-4 text-lg font-semibold">What you authorise</h2>
      <div
        id="auto-renew-consent"
        className="mt-2 space-y-2 rounded-md border border-gray-300 p-4 dark:border-gray-600"
      >
        {consentLines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <Form method="post" className="mt-4 space-y-4">
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        <input type="hidden" name="consentSha256" value={consentSha256} />
        <CheckboxField
          label="I have read the terms above and authorise these automatic charges."
          alsoDescribedBy="auto-renew-consent"
          inputProps={{ name: CONSENT_FIELD, value: CONSENT_GIVEN, required: true }}
        />
        <div className="flex flex-wrap items-center gap-4">
          <StatusButton name="intent" value="turn-on" status={pending ? 'pending' : 'idle'}>
            Turn on automatic renewal
          </StatusButton>
          <Link to="/subscriptions" className="font-medium text-green-700 underline dark:text-green-400">
            Not now
          </Link>
        </div>
      </Form>
    </section>
  )
}
