import { data, Form, Link } from 'react-router'
import { CheckboxField, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { siteTitle } from '~/domain/business-details'
import {
  accreditationOf,
  optInAsAccreditedInvestor,
  withdrawAccreditedOptIn,
} from '~/server/account/accreditation.server'
import { requireUser } from '~/server/auth/sign-in.server'
import { businessDetails } from '~/server/business.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/account.accredited-investor'

// An accredited investor's own opt-in to be outside the fee cap (docs/regulatory.md, "Family fee
// cap"): the certificate our analyst recorded, the statement to confirm, and a way to withdraw.

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Accredited investor') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

const HERE = '/account/accredited-investor'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { accreditation: await accreditationOf(user.id, new Date()), supportEmail: businessDetails.supportEmail }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const formData = await readForm(request)
  const intent = formData.get('intent')
  const outcome =
    intent === 'opt-in'
      ? await optInAsAccreditedInvestor(
          user.id,
          {
            confirmed: formData.get('confirm') === 'on',
            shownSha256: String(formData.get('statementSha256') ?? ''),
          },
          { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'PAGE' },
        )
      : intent === 'withdraw'
        ? await withdrawAccreditedOptIn(user.id)
        : ({ ok: false, status: 409, message: 'Choose what to do.' } as const)
  if (!outcome.ok) return data({ message: outcome.message }, outcome.status)
  return redirectWithFlash(HERE, { tone: 'success', message: outcome.message })
}

export default function AccreditedInvestor({ loaderData, actionData }: Route.ComponentProps) {
  const { accreditation, supportEmail } = loaderData
  const optingIn = useIsPending({ fields: { intent: 'opt-in' } })
  const withdrawing = useIsPending({ fields: { intent: 'withdraw' } })
  return (
    <section className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-semibold">Accredited investor</h1>
      <p className="text-sm">
        SEBI limits the fees a research analyst may charge an individual client and their family each year. An
        accredited investor may choose to be outside that limit. We treat you as one only with your accreditation
        certificate on record and your own choice here, and only until the certificate&apos;s last valid day.
      </p>
      {actionData?.message ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}
      {!accreditation ? (
        <p>
          We have no accreditation certificate of yours on record, so the fee limit applies to you. If you are an
          accredited investor, send your certificate to{' '}
          <a href={`mailto:${supportEmail}`} className="underline">
            {supportEmail}
          </a>
          .
        </p>
      ) : (
        <>
          <p>
            Your accreditation certificate on record: {accreditation.certificate}, valid until{' '}
            {accreditation.validUntil}
            {accreditation.expired ? ' (expired: the fee limit applies to you again)' : ''}.
          </p>
          {accreditation.optedInAt ? (
            <>
              <p>
                You chose to be treated as an accredited investor on {accreditation.optedInAt}.{' '}
                {accreditation.feeCapApplies
                  ? 'The fee limit applies to you again.'
                  : 'The fee limit does not apply to your fees.'}
              </p>
              <Form method="post">
                <StatusButton
                  name="intent"
                  value="withdraw"
                  variant="secondary"
                  status={withdrawing ? 'pending' : 'idle'}
                >
                  Withdraw my choice
                </StatusButton>
              </Form>
            </>
          ) : accreditation.expired ? null : (
            <Form method="post" className="space-y-4">
              <blockquote id="accredited-statement" className="border-l-4 border-gray-300 pl-3 text-sm">
                {accreditation.statement}
              </blockquote>
              <input type="hidden" name="statementSha256" value={accreditation.statementSha256} />
              <CheckboxField
                label="I confirm this statement and choose to be treated as an accredited investor."
                alsoDescribedBy="accredited-statement"
                inputProps={{ name: 'confirm', id: 'confirm', required: true }}
              />
              <StatusButton name="intent" value="opt-in" status={optingIn ? 'pending' : 'idle'}>
                Record my choice
              </StatusButton>
            </Form>
          )}
        </>
      )}
      <p className="text-sm">
        <Link to="/account" className="underline">
          Back to your data
        </Link>
      </p>
    </section>
  )
}
