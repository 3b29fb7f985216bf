import { siteTitle } from '~/domain/business-details'
import { data, Form, Link } from 'react-router'
import { FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { currentAgreement } from '~/server/account/agreement-document.server'
import {
  acknowledgementField,
  acknowledgementMessage,
  acknowledgementsFromForm,
  CONSENT_DOCUMENTS,
} from '~/domain/consent'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { safeRedirect } from '~/domain/redirect'
import { acceptAgreement } from '~/server/account/agreement.server'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { businessDetails } from '~/server/business.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { activeSubscriptions } from '~/server/payments/subscriptions.server'
import { termsForCustomer } from '~/server/account/terms-versions.server'
import type { Route } from './+types/terms.accept'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Accept the new Terms and Conditions') },
]

/**
 * Where a customer accepts a new version of the terms (docs/regulatory.md, A new version of the terms): sent here from
 * a paying path once the version is in force, or from the banner before. Instead of accepting, the customer may end
 * their subscriptions with the proportionate refund (/subscriptions/:serviceId/end).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const now = new Date()
  const [terms, subscriptions] = await Promise.all([termsForCustomer(user, now), activeSubscriptions(user.id, now)])
  const agreement = currentAgreement(businessDetails)
  const version = terms.mustAccept ?? terms.announced
  return {
    /** The version the customer is asked about (in force, else announced); null when nothing is asked. */
    asked: version
      ? {
          version: version.version,
          inForce: terms.mustAccept !== null,
          effectiveFrom: formatIndiaDateTime(version.effectiveFrom),
        }
      : null,
    acceptedVersion: user.agreementVersion,
    // The version the form accepts is always the code's text (the newest published), which covers any older one in force.
    currentVersion: agreement.version,
    subscriptions: subscriptions.map((subscription) => ({
      serviceId: subscription.serviceId,
      name: subscription.name,
      endsOn: formatIndiaDate(subscription.endsAt),
    })),
    redirectTo: safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/subscriptions'),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const formData = await readForm(request)
  const accepted = await acceptAgreement(user.id, {
    shown: acknowledgementsFromForm(formData),
    required: ['TERMS'],
    origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'PAGE' },
  })
  if (!accepted.signed) {
    return data(
      { error: acknowledgementMessage(accepted.check), currentVersion: accepted.currentVersions.TERMS },
      accepted.check.reason === 'stale' ? 409 : 400,
    )
  }
  const to = safeRedirect(
    formData.get('redirectTo') ?? new URL(request.url).searchParams.get('redirectTo'),
    '/subscriptions',
  )
  return redirectWithFlash(to, {
    tone: 'success',
    message: `Thank you: you accepted version ${accepted.versions.TERMS} of the Terms and Conditions.`,
  })
}

export default function TermsAccept({ loaderData, actionData }: Route.ComponentProps) {
  const { asked, currentVersion, subscriptions, acceptedVersion, redirectTo } = loaderData
  const pending = useIsPending()
  const field = acknowledgementField('TERMS')
  // A refused stale acceptance shows the version now current, for the customer to read and accept.
  const version = actionData?.currentVersion ?? currentVersion
  return (
    <section aria-labelledby="terms-accept-heading" className="max-w-2xl space-y-6">
      <h1 id="terms-accept-heading" className="text-2xl font-semibold">
        Accept the new Terms and Conditions
      </h1>
      {asked ? (
        <p>
          {asked.inForce
            ? `Version ${asked.version} of our Terms and Conditions is in force since ${asked.effectiveFrom}. Please read it and accept it before your next payment.`
            : `Version ${asked.version} of our Terms and Conditions takes effect on ${asked.effectiveFrom}. Until then the version you accepted stays in force; you may accept the new one now.`}
        </p>
      ) : (
        <p>
          You have accepted the Terms and Conditions in force (version {acceptedVersion}). There is nothing to accept
          now.
        </p>
      )}
      <ul className="list-disc space-y-1 pl-6">
        <li>
          <Link to="/terms-and-conditions" className="text-blue-700 underline dark:text-blue-300">
            Read the Terms and Conditions (version {currentVersion})
          </Link>
        </li>
        <li>
          <Link to="/terms-and-conditions/changes" className="text-blue-700 underline dark:text-blue-300">
            See what changed
          </Link>
        </li>
      </ul>
      {asked ? (
        <Form method="post" className="space-y-4">
          {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <div className="flex items-start gap-3">
            <input
              type="checkbox"
              id={field}
              name={field}
              value={version}
              required
              className="mt-1 h-5 w-5 shrink-0 accent-green-700"
            />
            <label htmlFor={field} className="text-sm">
              {CONSENT_DOCUMENTS.TERMS.acknowledgement} (version {version})
            </label>
          </div>
          <StatusButton status={pending ? 'pending' : 'idle'}>Accept and continue</StatusButton>
        </Form>
      ) : null}
      {asked ? (
        <section aria-labelledby="terms-decline-heading" className="space-y-2">
          <h2 id="terms-decline-heading" className="text-lg font-semibold">
            Or end your subscriptions instead
          </h2>
          <p className="text-sm">
            If you do not accept the new version, you may end each subscription now; we refund the unused part of what
            you paid for it, as our refund policy says.
          </p>
          {subscriptions.length ? (
            <ul className="list-disc space-y-1 pl-6 text-sm">
              {subscriptions.map((subscription) => (
                <li key={subscription.serviceId}>
                  {subscription.name} (until {subscription.endsOn}):{' '}
                  <Link
                    to={`/subscriptions/${subscription.serviceId}/end`}
                    className="text-blue-700 underline dark:text-blue-300"
                  >
                    End {subscription.name} with a refund
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm">You have no running subscriptions.</p>
          )}
        </section>
      ) : null}
    </section>
  )
}
