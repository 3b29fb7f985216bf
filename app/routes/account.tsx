import { siteTitle } from '~/domain/business-details'
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { FormMessage, StatusButton } from '~/components/forms'
import { codeSentMessage, OneTimeCodeForm } from '~/components/one-time-code-form'
import { useIsPending } from '~/components/use-is-pending'
import { RECORDS_KEPT_YEARS } from '~/domain/account-closing'
import { GST_RECORDS_KEPT_MONTHS } from '~/domain/record-retention'
import { VerifyCodeSchema } from '~/domain/sign-in'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { PAYMENT_METHOD_LABELS } from '~/domain/admin'
import { enumWords } from '~/domain/enum-words'
import { FAMILY_RELATION_LABELS } from '~/domain/family-relations'
import { KYC_STATUS_LABELS } from '~/domain/kyc'
import { formatRupees, formatSignedRupees } from '~/domain/money'
import { maskPan } from '~/domain/pan'
import { personName } from '~/domain/names'
import { taxDocumentHref } from '~/domain/tax-documents'
import { COMPLAINT_CALENDAR_DAYS } from '~/domain/complaints'
import {
  closeAccount,
  closingPlan,
  describeClosingCancels,
  describeClosingServices,
} from '~/server/account/closing.server'
import { customerData } from '~/server/account/your-data.server'
import { accreditationOf } from '~/server/account/accreditation.server'
import { researchChannelsOf } from '~/server/research/channels.server'
import { ResearchChannelsForm } from '~/components/research-channels-form'
import { requireUser } from '~/server/auth/sign-in.server'
import { businessDetails } from '~/server/business.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { checkTypedCode, requestOtp } from '~/server/auth/one-time-codes.server'
import { signOutHeaders } from '~/server/auth/sign-out.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/account'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Your data') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

const when = (iso: string | null) => (iso ? formatIndiaDateTime(new Date(iso)) : '')
const onDay = (iso: string | null) => (iso ? formatIndiaDate(new Date(iso)) : '')

/** What we hold about the signed-in customer (DPDP Act s.11); the PAN only displayed, so masked. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const now = new Date()
  const [found, plan, researchChannels, accreditation] = await Promise.all([
    customerData(user.id, now),
    closingPlan(user.id, now),
    researchChannelsOf(user.id),
    accreditationOf(user.id, now),
  ])
  const held = found!
  return {
    closing: plan.ok
      ? {
          ok: true as const,
          services: describeClosingServices(plan.services),
          cancels: describeClosingCancels(plan.cancels),
        }
      : { ok: false as const, message: plan.message, serviceId: plan.serviceId ?? null },
    supportEmail: businessDetails.supportEmail,
    researchChannels,
    profile: {
      phone: held.profile.phone,
      name: personName(held.profile.name),
      email: held.profile.email ?? '',
      dateOfBirth: held.profile.dateOfBirth ? onDay(`${held.profile.dateOfBirth}T00:00:00+05:30`) : '',
      pan: maskPan(held.profile.pan) ?? '',
      hasPanCard: held.profile.panCardImage !== null,
      kyc: held.profile.kyc.status ? KYC_STATUS_LABELS[held.profile.kyc.status].toLowerCase() : 'not checked',
      since: onDay(held.profile.accountCreatedAt),
    },
    familyMembers: held.familyMembers.map((member) => ({
      pan: maskPan(member.pan),
      relation: FAMILY_RELATION_LABELS[member.relation].toLowerCase(),
    })),
    dataNominee: held.dataNominee,
    accreditation: accreditation
      ? {
          certificate: accreditation.certificate,
          validUntil: accreditation.validUntil,
          optedInAt: accreditation.optedInAt,
          feeCapApplies: accreditation.feeCapApplies,
        }
      : null,
    acceptances: held.acceptances.map((row) => ({
      key: `${row.document}-${row.version}-${row.acceptedAt}`,
      document: enumWords(row.document),
      version: row.version,
      acceptedAt: when(row.acceptedAt),
      channel: row.channel === 'API' ? 'app' : 'website',
    })),
    payments: held.payments.map((payment) => ({
      id: payment.id,
      createdAt: when(payment.createdAt),
      services: payment.services.join(', '),
      amount: formatRupees(payment.amountPaise),
      method: PAYMENT_METHOD_LABELS[payment.method].toLowerCase(),
      status: enumWords(payment.status),
    })),
    invoices: held.invoices.map((entry) => ({
      number: entry.number,
      title: entry.kind === 'INVOICE' ? 'Invoice' : 'Credit note',
      issuedOn: onDay(entry.issuedAt),
      amount: formatSignedRupees(entry.amountPaise),
    })),
    refunds: held.refunds.map((refund) => ({
      requestedOn: onDay(refund.createdAt),
      service: refund.service,
      amount: formatRupees(refund.amountPaise),
      state: refund.state,
      next: refund.next,
    })),
    subscriptions: held.subscriptions.map((row, index) => ({
      key: `${row.service}-${row.startsAt}-${index}`,
      service: row.service,
      startsAt: onDay(row.startsAt),
      endsAt: onDay(row.endsAt),
    })),
    researchDeliveries: held.researchDeliveries.map((row) => ({
      item: row.item,
      channel: { EMAIL: 'e-mail', SMS: 'SMS', TELEGRAM: 'Telegram' }[row.channel],
      state:
        row.status === 'DELIVERED'
          ? `delivered ${when(row.deliveredAt)}`
          : row.status === 'SENT'
            ? `sent ${when(row.sentAt)}`
            : row.status === 'FAILED'
              ? `failed ${when(row.failedAt)}${row.failureReason ? `: ${row.failureReason}` : ''}`
              : 'queued',
      queuedAt: when(row.queuedAt),
    })),
    dataRecipients: held.dataRecipients.map((recipient) => [recipient.name, recipient.role]),
    signIns: held.signIns.map((row) => ({
      key: `${row.signedInAt}-${row.expiresAt}`,
      signedInAt: when(row.signedInAt),
      state: row.active ? `signed in until ${onDay(row.expiresAt)} at the latest` : 'ended',
    })),
  }
}

type CloseAnswer =
  | { step: 'refused'; message: string; result?: undefined }
  | { step: 'code'; message?: string; result?: SubmissionResult<string[]> }

/**
 * Closing the account, in two posts: "send a code" (refused while a refund would need a bank account),
 * then the code from that SMS, which closes it (and cancels the payments still open). A fresh code, so a borrowed unlocked session is not enough.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request)
  const formData = await readForm(request)
  const now = new Date()
  const refuse = (message: string) => data<CloseAnswer>({ step: 'refused', message }, 409)
  if (formData.get('intent') === 'close-send-code') {
    const plan = await closingPlan(user.id, now)
    if (!plan.ok) return refuse(plan.message)
    const sent = await requestOtp({ phone: user.phone, ip: context.clientIp, now })
    // A code sent a moment ago is still good: the form for it is shown with the wait.
    if (!sent.ok && sent.refusedBy === 'address') return refuse(sent.message)
    return data<CloseAnswer>({ step: 'code', message: sent.ok ? undefined : sent.message }, sent.ok ? 200 : 429)
  }
  if (formData.get('intent') !== 'close') return refuse('Choose what to do.')
  const submission = parseWithZod(formData, { schema: VerifyCodeSchema })
  if (submission.status !== 'success') return data<CloseAnswer>({ step: 'code', result: submission.reply() }, 400)
  const checked = await checkTypedCode({ phone: user.phone, code: submission.value.code, ip: context.clientIp, now })
  if (!checked.ok)
    return data<CloseAnswer>(
      { step: 'code', result: submission.reply({ fieldErrors: { code: [checked.message] } }) },
      checked.status,
    )
  const closed = await closeAccount(user.id, now)
  if (!closed.ok) return refuse(closed.message)
  const refunds = closed.ended.flatMap((service) => service.refunds).length
  return redirectWithFlash(
    '/services',
    {
      tone: 'success',
      message: `Your account is closed and you are signed out everywhere.${refunds ? ' Your refunds are on their way; we have e-mailed you the details.' : ''}`,
    },
    { headers: await signOutHeaders(request) },
  )
}

const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'

function Section({ title, id, children }: { title: string; id?: string; children: React.ReactNode }) {
  return (
    <section id={id} className="scroll-mt-20 space-y-2">
      <h2 className="text-lg font-medium">{title}</h2>
      {children}
    </section>
  )
}

function Rows({ label, columns, rows }: { label: string; columns: readonly string[]; rows: React.ReactNode[][] }) {
  if (rows.length === 0) return <p className="text-sm">None.</p>
  return (
    <ScrollableTable label={label} minWidthClass="min-w-[32rem]" stackOnPhone>
      <ColumnHeaders columns={columns} />
      <tbody>
        {rows.map((row, index) => (
          <tr key={index}>
            {row.map((value, column) => (
              <td key={column} className={cell} data-label={columns[column]}>
                {value}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </ScrollableTable>
  )
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { profile } = loaderData
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Your data</h1>
        <p className="text-sm">
          Everything we hold about you, as the{' '}
          <Link to="/privacy-policy" className="underline">
            privacy policy
          </Link>{' '}
          describes. Download it all as one file (JSON, with your PAN in full):{' '}
          <a href="/account/data.json" download className="underline">
            Download your data
          </a>
          .
        </p>
      </div>

      <Section title="Profile">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">Mobile number</dt>
          <dd>{profile.phone}</dd>
          <dt className="font-medium">Name</dt>
          <dd>{profile.name}</dd>
          <dt className="font-medium">E-mail</dt>
          <dd>{profile.email}</dd>
          <dt className="font-medium">Date of birth</dt>
          <dd>{profile.dateOfBirth}</dd>
          <dt className="font-medium">PAN</dt>
          <dd>{profile.pan}</dd>
          <dt className="font-medium">KYC at the KRA</dt>
          <dd>{profile.kyc}</dd>
          <dt className="font-medium">Customer since</dt>
          <dd>{profile.since}</dd>
        </dl>
        {profile.hasPanCard ? (
          <p className="text-sm">
            <a href="/details/pan-card" className="underline">
              Your PAN card image
            </a>{' '}
            (a download of its own).
          </p>
        ) : null}
        <p className="text-sm">
          Something wrong?{' '}
          <Link to="/account/corrections" className="underline">
            Ask for a correction of your name, PAN or date of birth
          </Link>{' '}
          or{' '}
          <Link to="/account/email" className="underline">
            change your e-mail address
          </Link>
          .
        </p>
        {loaderData.familyMembers.length ? (
          <Rows
            label="Family members"
            columns={['Family member PAN', 'Relation']}
            rows={loaderData.familyMembers.map((member) => [member.pan, member.relation])}
          />
        ) : null}
      </Section>

      <Section title="Nominee for your data rights" id="nominee">
        <p className="text-sm">
          The person who may use your rights over your personal data if you die or cannot use them yourself.
        </p>
        {loaderData.dataNominee ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm break-words">
            <dt className="font-medium">Name</dt>
            <dd>{loaderData.dataNominee.name}</dd>
            <dt className="font-medium">Relationship</dt>
            <dd>{loaderData.dataNominee.relationship}</dd>
            {loaderData.dataNominee.phone ? (
              <>
                <dt className="font-medium">Mobile number</dt>
                <dd>{loaderData.dataNominee.phone}</dd>
              </>
            ) : null}
            {loaderData.dataNominee.email ? (
              <>
                <dt className="font-medium">E-mail</dt>
                <dd>{loaderData.dataNominee.email}</dd>
              </>
            ) : null}
          </dl>
        ) : (
          <p className="text-sm">You have not named a nominee.</p>
        )}
        <p className="text-sm">
          <Link to="/account/nominee" className="underline">
            {loaderData.dataNominee ? 'Change or remove your nominee' : 'Name a nominee'}
          </Link>
        </p>
      </Section>

      {loaderData.accreditation ? (
        <Section title="Accredited investor" id="accredited-investor">
          <p className="text-sm">
            Your accreditation certificate {loaderData.accreditation.certificate}, valid until{' '}
            {loaderData.accreditation.validUntil}, is on record.{' '}
            {loaderData.accreditation.feeCapApplies
              ? 'The yearly fee limit applies to you.'
              : 'The yearly fee limit does not apply to your fees.'}
          </p>
          <p className="text-sm">
            <Link to="/account/accredited-investor" className="underline">
              {loaderData.accreditation.optedInAt
                ? 'See or withdraw your choice as an accredited investor'
                : 'Choose to be treated as an accredited investor'}
            </Link>
          </p>
        </Section>
      ) : null}

      <Section title="What you accepted">
        <Rows
          label="What you accepted"
          columns={['Document', 'Version', 'When', 'Where']}
          rows={loaderData.acceptances.map((row) => [row.document, row.version, row.acceptedAt, row.channel])}
        />
      </Section>

      <Section title="Who receives your data">
        <Rows label="Who receives your data" columns={['Who', 'What for']} rows={loaderData.dataRecipients} />
      </Section>

      <Section title="Payments">
        <Rows
          label="Payments"
          columns={['When', 'Services', 'Amount', 'How', 'Status']}
          rows={loaderData.payments.map((row) => [row.createdAt, row.services, row.amount, row.method, row.status])}
        />
      </Section>

      <Section title="Invoices and credit notes">
        <Rows
          label="Invoices and credit notes"
          columns={['Document', 'Date', 'Amount']}
          rows={loaderData.invoices.map((row) => [
            <Link key={row.number} to={taxDocumentHref(row.number)} className="underline">
              {row.title} {row.number}
            </Link>,
            row.issuedOn,
            row.amount,
          ])}
        />
      </Section>

      <Section title="Refunds">
        <Rows
          label="Refunds"
          columns={['Requested', 'Service', 'Amount', 'State', 'What happens next']}
          rows={loaderData.refunds.map((row) => [row.requestedOn, row.service, row.amount, row.state, row.next])}
        />
      </Section>

      <Section title="Subscriptions">
        <Rows
          label="Subscriptions"
          columns={['Service', 'From', 'Until']}
          rows={loaderData.subscriptions.map((row) => [row.service, row.startsAt, row.endsAt])}
        />
      </Section>

      <Section title="How research reaches you">
        <ResearchChannelsForm
          channels={loaderData.researchChannels}
          linkedOn={when(loaderData.researchChannels.telegram.linkedAt)}
        />
      </Section>

      <Section title="Research sent to you">
        <Rows
          label="Research sent to you"
          columns={['Item', 'Channel', 'Queued', 'State']}
          rows={loaderData.researchDeliveries.map((row) => [row.item, row.channel, row.queuedAt, row.state])}
        />
      </Section>

      <Section title="Sign-in history">
        <Rows
          label="Sign-in history"
          columns={['Signed in', 'Session']}
          rows={loaderData.signIns.map((row) => [row.signedInAt, row.state])}
        />
      </Section>

      <Section title="A complaint about your personal data">
        <p className="text-sm">
          If you think we have mishandled your personal data,{' '}
          <Link to="/complaints/new?category=PRIVACY" className="underline">
            file a privacy grievance
          </Link>
          . You get a reference number and the date by which we answer (within {COMPLAINT_CALENDAR_DAYS} days).
        </p>
      </Section>

      <CloseAccount closing={loaderData.closing} supportEmail={loaderData.supportEmail} answer={actionData} />
    </div>
  )
}

// Both posts come back to this section, not the top of a long page, when the browser reloads it (no JavaScript).
const CLOSE_ACCOUNT_ANCHOR = 'close-account'
const closeAccountAction = `/account#${CLOSE_ACCOUNT_ANCHOR}`

function CloseAccount({
  closing,
  supportEmail,
  answer,
}: {
  closing: Route.ComponentProps['loaderData']['closing']
  supportEmail: string
  answer: CloseAnswer | undefined
}) {
  const sending = useIsPending({ fields: { intent: 'close-send-code' } })
  const closingNow = useIsPending({ fields: { intent: 'close' } })
  const [form, fields] = useForm({
    lastResult: answer?.step === 'code' ? answer.result : undefined,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: VerifyCodeSchema }),
  })
  const refusal = answer?.step === 'refused' ? answer.message : closing.ok ? null : closing.message
  return (
    <Section title="Close your account" id={CLOSE_ACCOUNT_ANCHOR}>
      <div className="space-y-2 text-sm">
        <p>Closing your account withdraws your consent to our using your data to serve you. When you close it:</p>
        <ul className="list-disc space-y-1 pl-6">
          <li>
            Every service still running ends today, each with the refund for the days you have not used, back to the
            card or UPI you paid with (as ending a service on its own does). We e-mail you each credit note.
          </li>
          <li>You are signed out on every device, and this mobile number can no longer sign in.</li>
          <li>
            SEBI requires us to keep your KYC details, what you accepted, your payments, invoices, refunds and
            complaints for {RECORDS_KEPT_YEARS} years, and GST law requires us to keep payments, invoices and refunds
            until
            {GST_RECORDS_KEPT_MONTHS} months after the annual GST return of their financial year is due. We keep them
            that long, use them for nothing else, and then erase them.
          </li>
          <li>To open your account again later, write to {supportEmail}.</li>
        </ul>
        <p>To confirm it is you, we send a fresh sign-in code to your mobile number.</p>
      </div>
      {refusal ? (
        <>
          <FormMessage tone="error">{refusal}</FormMessage>
          <p className="text-sm">
            {!closing.ok && closing.serviceId ? (
              <Link to={`/subscriptions/${closing.serviceId}/end`} className="underline">
                End that service and give your bank account
              </Link>
            ) : (
              <Link to="/subscriptions" className="underline">
                See your subscriptions and payments
              </Link>
            )}
          </p>
        </>
      ) : null}
      {closing.ok && closing.services.length ? (
        <Rows
          label="Services that end"
          columns={['Service', 'Paid until', 'Refund']}
          rows={closing.services.map((service) => [service.name, service.until, service.refund])}
        />
      ) : null}
      {closing.ok && closing.cancels.length ? (
        <div className="space-y-1 text-sm">
          <p>Payments still open, which closing cancels:</p>
          <ul className="list-disc space-y-1 pl-6">
            {closing.cancels.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {closing.ok && answer?.step === 'code' ? (
        <OneTimeCodeForm
          formProps={{ ...getFormProps(form), action: closeAccountAction }}
          sentTo="your mobile number"
          notice={answer.message ?? codeSentMessage('your mobile number')}
          label="Code from the SMS"
          errors={fields.code.errors}
          codeProps={getInputProps(fields.code, { type: 'text' })}
          intent="close"
          submitLabel="Close my account"
          status={closingNow ? 'pending' : 'idle'}
        />
      ) : closing.ok ? (
        <Form method="post" action={closeAccountAction}>
          <StatusButton name="intent" value="close-send-code" variant="secondary" status={sending ? 'pending' : 'idle'}>
            Send a code to close my account
          </StatusButton>
        </Form>
      ) : null}
    </Section>
  )
}
