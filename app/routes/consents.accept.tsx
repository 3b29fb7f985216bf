import { siteTitle } from '~/domain/business-details'
import { data, Form, Link, redirect } from 'react-router'
import { CheckboxField, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import {
  acknowledgementField,
  acknowledgementMessage,
  acknowledgementsFromForm,
  CONSENT_DOCUMENTS,
  type ConsentDocumentKind,
} from '~/domain/consent'
import { safeRedirect } from '~/domain/redirect'
import { acknowledgementsDueToPay, consentsMissingToPay } from '~/server/account/acceptances.server'
import { changedDocumentsFor } from '~/server/account/document-versions.server'
import { acceptAgreement, currentVersions } from '~/server/account/agreement.server'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/consents.accept'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Before your next payment') }]

type DocumentToAcknowledge = { kind: ConsentDocumentKind; version: string; changedOn: string | null; changed: boolean }

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(loaderHeaders)
}

/**
 * Where a customer gives, before the next payment, what they have not acknowledged: the Investor Charter or the
 * consent to processing personal data never given (onboarded through the API before it asked for them), or a new
 * text of the Privacy Policy, the Investor Charter or the MITC (docs/decisions/053-document-versions.md). /pay and
 * the other paying pages send them here (requirePayingCustomer), the banner links here, and they come back.
 * Recorded as the wizard's agreement step records them (acceptAgreement, channel PAGE).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/pay')
  const due = await acknowledgementsDueToPay(user.id)
  if (!due.length) throw redirect(redirectTo)
  return { documents: await documentsToAcknowledge(user, due), redirectTo }
}

async function documentsToAcknowledge(
  user: { id: string; agreementAcceptedAt: Date | null },
  due: { kind: ConsentDocumentKind; changed: boolean }[],
): Promise<DocumentToAcknowledge[]> {
  const versions = currentVersions()
  const changed = await changedDocumentsFor(user)
  return due.map(({ kind, changed: isChanged }) => ({
    kind,
    version: versions[kind],
    changed: isChanged,
    changedOn: changed.find((document) => document.kind === kind)?.publishedOn ?? null,
  }))
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const formData = await readForm(request)
  const to = safeRedirect(formData.get('redirectTo') ?? new URL(request.url).searchParams.get('redirectTo'), '/pay')
  const missing = await consentsMissingToPay(user.id)
  if (!missing.length) throw redirect(to)
  const accepted = await acceptAgreement(user.id, {
    shown: acknowledgementsFromForm(formData),
    required: missing,
    origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'PAGE' },
  })
  if (!accepted.signed) {
    return data(
      {
        error: acknowledgementMessage(accepted.check),
        documents: await documentsToAcknowledge(user, await acknowledgementsDueToPay(user.id)),
      },
      accepted.check.reason === 'stale' ? 409 : 400,
    )
  }
  return redirectWithFlash(to, {
    tone: 'success',
    message: `Thank you: we recorded your acknowledgement of the ${missing.map((kind) => CONSENT_DOCUMENTS[kind].title).join(' and ')}.`,
  })
}

export default function ConsentsAccept({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsPending()
  // A refused stale acknowledgement shows the versions now current.
  const documents = actionData?.documents ?? loaderData.documents
  return (
    <section aria-labelledby="consents-accept-heading" className="max-w-2xl space-y-6">
      <h1 id="consents-accept-heading" className="text-2xl font-semibold">
        Before your next payment
      </h1>
      <ul className="list-disc space-y-1 pl-6">
        {documents.map(({ kind, changed, changedOn }) => (
          <li key={kind}>
            {changed
              ? `Our ${CONSENT_DOCUMENTS[kind].title} changed${changedOn ? ` on ${changedOn}` : ''}: you acknowledged an earlier version.`
              : `We ask every customer for the ${CONSENT_DOCUMENTS[kind].title} before they subscribe, and have no record of yours.`}
          </li>
        ))}
      </ul>
      <p>Please read and tick each below. We keep a record of each (the version, when, and from which address).</p>
      <Form method="post" className="space-y-4">
        {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold">Your acknowledgements</legend>
          {documents.map(({ kind, version }) => {
            const id = acknowledgementField(kind)
            const info = CONSENT_DOCUMENTS[kind]
            return (
              <div key={kind} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <CheckboxField
                  label={`${info.acknowledgement} (version ${version})`}
                  alsoDescribedBy={`${id}-link`}
                  inputProps={{ id, name: id, value: version, required: true }}
                />
                <p id={`${id}-link`} className="mt-1 pl-8 text-sm">
                  <Link to={info.path} className="text-blue-700 underline dark:text-blue-300">
                    Read the {info.title}
                  </Link>
                </p>
              </div>
            )
          })}
        </fieldset>
        <StatusButton status={pending ? 'pending' : 'idle'}>Accept and continue</StatusButton>
      </Form>
    </section>
  )
}
