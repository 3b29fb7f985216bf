import { siteTitle } from '~/domain/business-details'
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, repliedField, SelectField, StatusButton, TextareaField } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { FeeCapExemptionSchema, GRANT_REASON_MAX_LENGTH, GrantSubscriptionSchema } from '~/domain/admin'
import { formatIndiaDate, formatIndiaDateTime, formatIsoDate } from '~/domain/dates'
import { FAMILY_RELATION_LABELS } from '~/domain/family-relations'
import {
  ACCREDITATION_CERTIFICATE_MAX_LENGTH,
  FEE_CAP_EXEMPTION_LABELS,
  FEE_CAP_EXEMPTION_REASON_MAX_LENGTH,
  FEE_CAP_EXEMPTIONS,
} from '~/domain/fee-cap'
import { formatRupees } from '~/domain/money'
import { taxDocumentHref } from '~/domain/tax-documents'
import { requireAdmin } from '~/server/auth/admin-role.server'
import {
  adminViewsOf,
  customerForAdmin,
  grantableServices,
  grantSubscriptionAsAdmin,
  recordCustomerPageView,
  setFeeCapExemption,
} from '~/server/admin/customers.server'
import { acceptanceHistory } from '~/server/account/acceptances.server'
import { accreditationForAdmin } from '~/server/account/accreditation.server'
import { dispatchIntent, readForm } from '~/server/http/form-data.server'
import { correctionRequestsOf, decideCorrectionRequest } from '~/server/account/corrections.server'
import {
  CORRECTION_CHANGE_LABELS,
  CORRECTION_REASON_MAX_CHARS,
  CorrectionDecisionSchema,
  kycAllowsPayment,
  KYC_STATUS_LABELS,
} from '~/domain/kyc'
import {
  KRA_RECORD_REVIEW_LABELS,
  KRA_RECORD_REVIEWS,
  type KraRecordReview,
  type KraRecordState,
} from '~/domain/kra-record-match'
import { decideKraRecord, kraRecordStateOf, profileAndRecord } from '~/server/kyc/kra-record.server'
import { CONSENT_DOCUMENTS } from '~/domain/consent'
import { AdminEndSubscriptionForm } from '~/components/admin-end-subscription'
import { AdminMandates } from '~/components/admin-mandates'
import { autoRenewStatusText } from '~/domain/auto-renew-status'
import {
  ADMIN_STOP_REASON_MAX_LENGTH,
  customerMandates,
  stopAutoRenewAsAdmin,
} from '~/server/payments/auto-renew.server'
import type { Route } from './+types/customer'
import { SENT_MESSAGES_SHOWN, sentMessagesOf } from '~/server/messaging/message-archive.server'

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => [
  { title: siteTitle(matches, `${loaderData?.customer.name ?? 'Customer'} | Admin`) },
]

const PROFILE_STEP_LABELS = {
  details: 'Details missing (name, e-mail, date of birth or PAN)',
  'pan-card': 'PAN card image missing',
  agreement: 'Agreement not accepted',
  complete: 'Complete',
} as const

const MESSAGE_CHANNEL_WORDS: Record<string, string> = { email: 'E-mail', sms: 'SMS', telegram: 'Telegram' }

export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  const [customer, services] = await Promise.all([customerForAdmin(params.userId), grantableServices()])
  if (!customer) throw data('Not Found', { status: 404 })
  // Every view of a customer's personal data is in the audit log; this one too, before the trail is read.
  await recordCustomerPageView(admin.id, customer.id)
  const corrections = await correctionRequestsOf(customer.id)
  const acceptances = await acceptanceHistory(customer.id)
  const adminViews = await adminViewsOf(customer.id)
  const messages = await sentMessagesOf(customer.id, SENT_MESSAGES_SHOWN)
  const mandates = await customerMandates(customer.id)
  const now = new Date()
  const recordState = kraRecordStateOf(customer)
  const accreditation = await accreditationForAdmin(customer, now)
  // Formatted here, on the server, so the page reads the same with and without JavaScript.
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      phone: customer.phone,
      email: customer.email,
      pan: customer.pan,
      role: customer.role,
      dateOfBirth: customer.dateOfBirth ? formatIndiaDate(customer.dateOfBirth) : null,
      hasPanCard: customer.panCardKey !== null,
      agreement: customer.agreementAcceptedAt
        ? { version: customer.agreementVersion, acceptedAt: formatIndiaDateTime(customer.agreementAcceptedAt) }
        : null,
      profileStatus: PROFILE_STEP_LABELS[customer.profileStep],
      closedAt: customer.closedAt ? formatIndiaDateTime(customer.closedAt) : null,
      kyc: customer.kycStatus
        ? {
            status: KYC_STATUS_LABELS[customer.kycStatus],
            allowsPayment: kycAllowsPayment(customer.kycStatus),
            checkedAt: customer.kycCheckedAt ? formatIndiaDateTime(customer.kycCheckedAt) : null,
            reference: customer.kycReference,
            nameOnRecord: customer.kycNameOnRecord,
            dobOnRecord: customer.kycDobOnRecord ? formatIndiaDate(customer.kycDobOnRecord) : null,
            nameMismatch: recordState.kind !== 'match' && recordState.differences.includes('name'),
            record: kraRecordForAdmin(customer, recordState),
          }
        : null,
      feeCap: customer.feeCapExemption
        ? {
            exemption: FEE_CAP_EXEMPTION_LABELS[customer.feeCapExemption],
            reason: customer.feeCapExemptionReason,
            accreditation,
          }
        : null,
      family: customer.familyMembers.map((member) => ({
        pan: member.pan,
        relation: FAMILY_RELATION_LABELS[member.relation],
      })),
      dataNominee: customer.dataNominee,
    },
    payments: customer.payments.map((payment) => ({
      id: payment.id,
      method: payment.method,
      status: payment.status,
      total: formatRupees(payment.amountPaise),
      services: payment.cart.map((item) => item.name).join(', '),
      utr: payment.utr,
      createdAt: formatIndiaDateTime(payment.createdAt),
      paidAt: payment.paidAt ? formatIndiaDateTime(payment.paidAt) : null,
      rejectedReason: payment.rejectedReason,
      // Its invoice (or receipt) first, then any credit notes.
      documents: payment.ledgerEntries.map((entry) => entry.documentNumber),
    })),
    subscriptions: customer.subscriptions.map((subscription) => ({
      id: subscription.id,
      service: subscription.service.name,
      startsOn: formatIndiaDate(subscription.startsAt),
      endsOn: formatIndiaDate(subscription.endsAt),
      running: subscription.startsAt <= now && subscription.endsAt > now,
      grantReason: subscription.grantReason,
    })),
    // The records (newest first), each as kept: nothing here can change them.
    adminViews: {
      total: adminViews.total,
      views: adminViews.views.map((view) => ({
        id: view.id,
        what: view.what,
        at: formatIndiaDateTime(view.at),
        admin: [view.admin.name, view.admin.phone].filter(Boolean).join(', ') || view.admin.id,
      })),
    },
    mandates: mandates.map((mandate) => ({
      id: mandate.id,
      serviceName: mandate.serviceName,
      live: mandate.state !== 'CANCELLED',
      status: autoRenewStatusText(mandate),
      createdAt: formatIndiaDateTime(mandate.createdAt),
      ended: mandate.cancelledAt
        ? `stopped ${formatIndiaDateTime(mandate.cancelledAt)}${mandate.cancelReason ? ` (${mandate.cancelReason})` : ''}`
        : null,
    })),
    mandateReasonMaxLength: ADMIN_STOP_REASON_MAX_LENGTH,
    messagesShown: SENT_MESSAGES_SHOWN,
    messages: messages.map((message, index) => ({
      key: `${message.sentAt.getTime()}-${index}`,
      sentAt: formatIndiaDateTime(message.sentAt),
      channel: MESSAGE_CHANNEL_WORDS[message.channel] ?? message.channel,
      recipient: message.recipient,
      template: message.template,
      text: message.subject ? `${message.subject}\n\n${message.body}` : message.body,
    })),
    acceptances: acceptances.map((record) => ({
      id: record.id,
      document: CONSENT_DOCUMENTS[record.kind].title,
      version: record.version,
      textSha256: record.textSha256,
      acceptedAt: formatIndiaDateTime(record.acceptedAt),
      ip: record.ip,
      userAgent: record.userAgent,
      channel: record.channel === 'API' ? 'API' : record.channel === 'PAGE' ? 'Page' : 'Not recorded (before records)',
    })),
    services,
    corrections: corrections.map((row) => ({
      id: row.id,
      status: row.status,
      reason: row.reason,
      createdAt: formatIndiaDateTime(row.createdAt),
      changes: row.changes.map((change) => ({ ...change, label: CORRECTION_CHANGE_LABELS[change.field] })),
    })),
    // One per service still running or to come: ending it ends all of its periods, with their refunds.
    endable: [
      ...new Map(
        customer.subscriptions
          .filter((subscription) => subscription.endsAt > now)
          .map((subscription) => [subscription.service.id, subscription.service.name]),
      ),
    ].map(([serviceId, name]) => ({ serviceId, name })),
  }
}

/** Grant a complimentary or corrective subscription, with a reason; or mark the customer exempt from the fee cap, or not. */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  const decide = () => decideCorrection(admin.id, params.userId, formData)
  const feeCap = () => setFeeCap(admin.id, params.userId, formData)
  return dispatchIntent(
    formData,
    {
      'correction-approve': decide,
      'correction-reject': decide,
      'fee-cap-exempt': feeCap,
      'fee-cap-unexempt': feeCap,
      'kra-record-decide': () => decideRecord(admin.id, params.userId, formData),
      'mandate-stop': () => stopMandate(admin.id, params.userId, formData),
    },
    () => grant(admin.id, params.userId, formData),
  )
}

async function decideCorrection(adminId: string, userId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: CorrectionDecisionSchema })
  const requestId = String(formData.get('requestId') ?? '')
  if (submission.status !== 'success') {
    // The reason's refusal is shown on the reason box of the request it was typed for; anything
    // else (no request named) concerns no field.
    const { reason, ...others } = submission.error ?? {}
    const message = reason?.length
      ? 'Not rejected: the reason below is needed.'
      : (Object.values(others).flat()[0] ?? 'Choose a request to decide.')
    return data({ form: 'correction' as const, requestId, result: submission.reply(), message, ok: false }, 400)
  }
  const decision = submission.value
  const outcome = await decideCorrectionRequest(
    adminId,
    userId,
    decision.requestId,
    decision.intent === 'correction-approve' ? 'approve' : 'reject',
    { reason: decision.intent === 'correction-reject' ? decision.reason : null },
  )
  return data(
    { form: 'correction' as const, requestId, result: undefined, message: outcome.message, ok: outcome.ok },
    outcome.ok ? 200 : outcome.status,
  )
}

/** Where the KRA's record stands beside the profile, when it differs: the values side by side and the decision. */
function kraRecordForAdmin(
  customer: Parameters<typeof profileAndRecord>[0] & { kycRecordReviewedAt: Date | null },
  state: KraRecordState,
) {
  if (state.kind === 'match') return null
  const { profile, record } = profileAndRecord(customer)
  const date = (dob: string | null) => (dob ? formatIsoDate(dob) : 'none given')
  return {
    rows: [
      {
        field: 'Name',
        profile: profile.name ?? 'none given',
        record: record.name ?? 'none given',
        differs: state.differences.includes('name'),
      },
      {
        field: 'Date of birth',
        profile: date(profile.dob),
        record: date(record.dob),
        differs: state.differences.includes('dob'),
      },
    ],
    decision:
      state.kind === 'awaiting-review'
        ? 'Waiting for your decision: the customer cannot pay until then.'
        : `${KRA_RECORD_REVIEW_LABELS[state.kind === 'accepted' ? 'ACCEPTED' : 'CORRECTION_ASKED']}${
            customer.kycRecordReviewedAt ? `, ${formatIndiaDateTime(customer.kycRecordReviewedAt)}` : ''
          }.`,
  }
}

async function decideRecord(adminId: string, userId: string, formData: FormData) {
  const decision = String(formData.get('decision') ?? '')
  if (!(KRA_RECORD_REVIEWS as readonly string[]).includes(decision))
    return data({ form: 'kra-record' as const, message: 'Choose a decision.', ok: false }, 400)
  const outcome = await decideKraRecord(adminId, userId, decision as KraRecordReview)
  return data(
    { form: 'kra-record' as const, message: outcome.message, ok: outcome.ok },
    outcome.ok ? 200 : outcome.status,
  )
}

async function stopMandate(adminId: string, userId: string, formData: FormData) {
  const mandateId = String(formData.get('mandateId') ?? '')
  const outcome = await stopAutoRenewAsAdmin(adminId, userId, {
    mandateId,
    reason: String(formData.get('reason') ?? ''),
  })
  return data({ form: 'mandate' as const, mandateId, message: outcome.message, ok: outcome.ok }, outcome.status)
}

async function setFeeCap(adminId: string, userId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: FeeCapExemptionSchema })
  if (submission.status !== 'success')
    return data({ form: 'fee-cap' as const, result: submission.reply(), message: null, ok: false }, 400)
  const outcome = await setFeeCapExemption(adminId, userId, submission.value)
  if (!outcome.ok)
    return data(
      {
        form: 'fee-cap' as const,
        result:
          outcome.status === 400
            ? submission.reply({ fieldErrors: { validUntil: [outcome.message] } })
            : submission.reply(),
        message: outcome.message,
        ok: false,
      },
      outcome.status,
    )
  return { form: 'fee-cap' as const, result: submission.reply({ resetForm: true }), message: outcome.message, ok: true }
}

async function grant(adminId: string, userId: string, formData: FormData) {
  const submission = parseWithZod(formData, { schema: GrantSubscriptionSchema })
  if (submission.status !== 'success')
    return data({ form: 'grant' as const, result: submission.reply(), message: null, ok: false }, 400)
  const outcome = await grantSubscriptionAsAdmin(adminId, userId, submission.value)
  if (!outcome.ok)
    return data(
      { form: 'grant' as const, result: submission.reply(), message: outcome.message, ok: false },
      outcome.status,
    )
  return { form: 'grant' as const, result: submission.reply({ resetForm: true }), message: outcome.message, ok: true }
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, payments, subscriptions, services } = loaderData
  return (
    <>
      <p>
        <Link to="/admin/customers" className="underline">
          Customers
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold capitalize">{customer.name ?? 'Name not given'}</h1>
      <section aria-labelledby="profile-heading" className="mt-4">
        <h2 id="profile-heading" className="text-xl font-semibold">
          Profile and KYC
        </h2>
        <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">Phone</dt>
          <dd>{customer.phone}</dd>
          <dt className="font-medium">E-mail</dt>
          <dd className="break-all">{customer.email ?? 'Not given'}</dd>
          <dt className="font-medium">Date of birth</dt>
          <dd>{customer.dateOfBirth ?? 'Not given'}</dd>
          <dt className="font-medium">PAN</dt>
          <dd>{customer.pan ?? 'Not given'}</dd>
          <dt className="font-medium">Profile</dt>
          <dd>{customer.profileStatus}</dd>
          {customer.closedAt ? (
            <>
              <dt className="font-medium">Account</dt>
              <dd>Closed by the customer on {customer.closedAt}</dd>
            </>
          ) : null}
          <dt className="font-medium">KYC at the KRA</dt>
          <dd data-testid="admin-kyc">
            {customer.kyc ? (
              <>
                {customer.kyc.status}
                {customer.kyc.allowsPayment ? '' : ' (cannot pay)'}, checked {customer.kyc.checkedAt}, reference{' '}
                {customer.kyc.reference}
                <span className="block">Name on record: {customer.kyc.nameOnRecord ?? 'none'}</span>
                <span className="block">Date of birth on record: {customer.kyc.dobOnRecord ?? 'none given'}</span>
                {customer.kyc.nameMismatch ? (
                  <span className="block font-medium text-red-700 dark:text-red-400">
                    The name on record does not match the profile name.
                  </span>
                ) : null}
              </>
            ) : (
              'Not checked'
            )}
          </dd>
          <dt className="font-medium">Agreement</dt>
          <dd>
            {customer.agreement
              ? `Version ${customer.agreement.version ?? 'unknown'}, accepted ${customer.agreement.acceptedAt}`
              : 'Not accepted'}
          </dd>
          <dt className="font-medium">Family members' PANs</dt>
          <dd>
            {customer.family.length ? (
              <ul>
                {customer.family.map((member) => (
                  <li key={member.pan}>
                    {member.pan} ({member.relation})
                  </li>
                ))}
              </ul>
            ) : (
              'None declared'
            )}
          </dd>
          <dt className="font-medium">Nominee for data rights</dt>
          <dd className="break-words">
            {customer.dataNominee
              ? [
                  `${customer.dataNominee.name} (${customer.dataNominee.relationship})`,
                  customer.dataNominee.phone,
                  customer.dataNominee.email,
                ]
                  .filter(Boolean)
                  .join(', ')
              : 'None named'}
          </dd>
          <dt className="font-medium">PAN card</dt>
          <dd>
            {customer.hasPanCard ? (
              <a
                href={`/admin/customers/${customer.id}/pan-card`}
                target="_blank"
                rel="noopener noreferrer"
                className="underline"
              >
                View the PAN card image<span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : (
              'Not uploaded'
            )}
          </dd>
        </dl>
      </section>

      {customer.kyc?.record ? (
        <KraRecordDecision
          record={customer.kyc.record}
          answer={actionData?.form === 'kra-record' ? actionData : undefined}
        />
      ) : null}

      <CorrectionRequests
        customerId={customer.id}
        corrections={loaderData.corrections}
        answer={actionData?.form === 'correction' ? actionData : undefined}
      />

      <section aria-labelledby="fee-cap-heading" className="mt-8 max-w-xl">
        <h2 id="fee-cap-heading" className="text-xl font-semibold">
          Fee cap
        </h2>
        <FeeCapForm feeCap={customer.feeCap} answer={actionData?.form === 'fee-cap' ? actionData : undefined} />
      </section>

      <section aria-labelledby="subscriptions-heading" className="mt-8">
        <h2 id="subscriptions-heading" className="text-xl font-semibold">
          Subscriptions
        </h2>
        {subscriptions.length === 0 ? (
          <p className="mt-2">No subscriptions.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {subscriptions.map((subscription) => (
              <li key={subscription.id}>
                <span className="font-medium">{subscription.service}</span>: {subscription.startsOn} to{' '}
                {subscription.endsOn}
                {subscription.running ? ' (running)' : ''}
                {subscription.grantReason ? (
                  <span className="block text-sm">Granted: {subscription.grantReason}</span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {loaderData.endable.map((service) => (
          <AdminEndSubscriptionForm key={service.serviceId} userId={customer.id} {...service} />
        ))}
      </section>

      <AdminMandates
        mandates={loaderData.mandates}
        reasonMaxLength={loaderData.mandateReasonMaxLength}
        answer={actionData?.form === 'mandate' ? actionData : undefined}
      />

      <section aria-labelledby="grant-heading" className="mt-8 max-w-xl">
        <h2 id="grant-heading" className="text-xl font-semibold">
          Grant a subscription
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Complimentary or corrective, without a payment. It follows on from a running subscription to the same service;
          the customer is e-mailed and the grant is audited with its reason.
        </p>
        <GrantForm services={services} answer={actionData?.form === 'grant' ? actionData : undefined} />
      </section>

      <section aria-labelledby="acceptances-heading" className="mt-8">
        <h2 id="acceptances-heading" className="text-xl font-semibold">
          Acceptances
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Every acknowledgement of a document, newest first, kept at least 5 years and never changed.
        </p>
        {loaderData.acceptances.length === 0 ? (
          <p className="mt-2">No acceptances.</p>
        ) : (
          <RecordTable
            label="Acceptances"
            columns={['When', 'Document', 'Version', 'Channel', 'Address', 'Browser or client']}
          >
            <tbody>
              {loaderData.acceptances.map((record) => (
                <tr key={record.id} className="border-b border-gray-100 align-top dark:border-gray-800">
                  <td className="py-1 pr-3 whitespace-nowrap">{record.acceptedAt}</td>
                  <td className="py-1 pr-3">{record.document}</td>
                  <td className="py-1 pr-3">
                    <span className="font-mono">{record.version}</span>
                    <span className="block max-w-[16rem] truncate font-mono text-xs" title={record.textSha256}>
                      SHA-256 {record.textSha256}
                    </span>
                  </td>
                  <td className="py-1 pr-3">{record.channel}</td>
                  <td className="py-1 pr-3">{record.ip ?? 'Not recorded'}</td>
                  <td className="max-w-[16rem] py-1 pr-3 break-words">{record.userAgent ?? 'Not recorded'}</td>
                </tr>
              ))}
            </tbody>
          </RecordTable>
        )}
      </section>

      <section aria-labelledby="messages-heading" className="mt-8">
        <h2 id="messages-heading" className="text-xl font-semibold">
          Messages sent
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Every e-mail, SMS and Telegram message the store sent this customer, newest first (at most{' '}
          {loaderData.messagesShown} here; the customer&apos;s data download has all). A one-time code is masked.
        </p>
        {loaderData.messages.length === 0 ? (
          <p className="mt-2">No messages sent.</p>
        ) : (
          <RecordTable label="Messages sent" columns={['When', 'Channel', 'To', 'Message', 'Text']}>
            <tbody>
              {loaderData.messages.map((message) => (
                <tr key={message.key} className="border-b border-gray-100 align-top dark:border-gray-800">
                  <td className="py-1 pr-3 whitespace-nowrap">{message.sentAt}</td>
                  <td className="py-1 pr-3">{message.channel}</td>
                  <td className="py-1 pr-3 break-all">{message.recipient}</td>
                  <td className="py-1 pr-3">{message.template}</td>
                  <td className="max-w-[28rem] py-1 pr-3 break-words">
                    <details>
                      <summary>{message.text.split('\n')[0]}</summary>
                      <p className="whitespace-pre-wrap">{message.text}</p>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </RecordTable>
        )}
      </section>

      <section aria-labelledby="admin-views-heading" className="mt-8">
        <h2 id="admin-views-heading" className="text-xl font-semibold">
          Who viewed this customer's data
        </h2>
        <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
          Every admin view of this page and of the PAN card image, newest first (the customer does not see this).
          {loaderData.adminViews.total > loaderData.adminViews.views.length
            ? ` The newest ${loaderData.adminViews.views.length} of ${loaderData.adminViews.total}; the audit log has all.`
            : null}
        </p>
        <RecordTable label="Admin views" columns={['When', 'Admin', 'Viewed']}>
          <tbody>
            {loaderData.adminViews.views.map((view) => (
              <tr key={view.id} className="border-b border-gray-100 align-top dark:border-gray-800">
                <td className="py-1 pr-3 whitespace-nowrap">{view.at}</td>
                <td className="py-1 pr-3">{view.admin}</td>
                <td className="py-1 pr-3">{view.what}</td>
              </tr>
            ))}
          </tbody>
        </RecordTable>
      </section>

      <section aria-labelledby="payments-heading" className="mt-8">
        <h2 id="payments-heading" className="text-xl font-semibold">
          Payments
        </h2>
        {payments.length === 0 ? (
          <p className="mt-2">No payments.</p>
        ) : (
          <ul className="mt-2 space-y-3">
            {payments.map((payment) => (
              <li key={payment.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <p className="font-medium">
                  {payment.method === 'MANUAL' ? 'Bank transfer' : 'Gateway'},{' '}
                  {payment.status.toLowerCase().replace('_', ' ')}: Rs. {payment.total}
                </p>
                <p className="text-sm">{payment.services}</p>
                <p className="text-sm">
                  Created {payment.createdAt}
                  {payment.paidAt ? `; paid ${payment.paidAt}` : ''}
                  {payment.utr ? `; UTR ${payment.utr}` : ''}
                </p>
                {payment.rejectedReason ? <p className="text-sm">Rejected: {payment.rejectedReason}</p> : null}
                {payment.documents.length ? (
                  <p className="text-sm">
                    {payment.documents.map((number, index) => (
                      <span key={number}>
                        {index ? ', ' : 'Documents: '}
                        <Link to={taxDocumentHref(number)} className="underline">
                          {number}
                        </Link>
                      </span>
                    ))}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}

/** A record table of this page: it scrolls inside a labelled region the keyboard can reach. */
function RecordTable({ label, columns, children }: { label: string; columns: string[]; children: React.ReactNode }) {
  return (
    <div className="mt-2 overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className="min-w-full text-left text-sm">
        <thead>
          <tr className="border-b border-gray-200 dark:border-gray-700">
            {columns.map((column) => (
              <th key={column} scope="col" className="py-1 pr-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  )
}

function GrantForm({
  services,
  answer,
}: {
  services: Route.ComponentProps['loaderData']['services']
  answer: Extract<Route.ComponentProps['actionData'], { form: 'grant' }> | undefined
}) {
  const pending = useIsPending()
  const [form, fields] = useForm({
    id: 'grant',
    lastResult: answer?.result,
    defaultValue: { serviceId: '', durationDays: '30', reason: '' },
    constraint: getZodConstraint(GrantSubscriptionSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: GrantSubscriptionSchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset className="mt-3 space-y-4">
      {answer?.message ? <FormMessage tone={answer.ok ? 'success' : 'error'}>{answer.message}</FormMessage> : null}
      <SelectField
        label="Service"
        errors={fields.serviceId.errors}
        selectProps={getSelectProps(fields.serviceId)}
        placeholder="Choose a service"
        options={services.map((service) => ({
          value: service.id,
          label: `${service.name}${service.active ? '' : ' (off sale)'}`,
        }))}
      />
      <Field
        label="Days"
        errors={fields.durationDays.errors}
        inputProps={{ ...getInputProps(fields.durationDays, { type: 'text' }), inputMode: 'numeric' }}
      />
      <TextareaField
        label="Reason"
        errors={fields.reason.errors}
        textareaProps={{ ...getTextareaProps(fields.reason), rows: 3, maxLength: GRANT_REASON_MAX_LENGTH }}
      />
      <StatusButton status={pending ? 'pending' : answer?.ok ? 'success' : 'idle'}>Grant subscription</StatusButton>
    </Form>
  )
}

function FeeCapForm({
  feeCap,
  answer,
}: {
  feeCap: Route.ComponentProps['loaderData']['customer']['feeCap']
  answer: Extract<Route.ComponentProps['actionData'], { form: 'fee-cap' }> | undefined
}) {
  const pending = useIsPending()
  const [form, fields] = useForm({
    id: 'fee-cap',
    lastResult: answer?.result,
    defaultValue: { exemption: '', reason: '', certificate: '', validUntil: '' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FeeCapExemptionSchema }),
  })
  const message = answer?.message ? (
    <FormMessage tone={answer.ok ? 'success' : 'error'}>{answer.message}</FormMessage>
  ) : null
  if (feeCap)
    return (
      <Form method="post" preventScrollReset className="mt-2 space-y-3">
        {message}
        <p>
          Exempt: {feeCap.exemption}. Reason: {feeCap.reason}
        </p>
        {feeCap.accreditation ? (
          <>
            <p>
              Certificate {feeCap.accreditation.certificate}, valid until {feeCap.accreditation.validUntil}.{' '}
              {feeCap.accreditation.optedIn
                ? `The customer opted in on ${feeCap.accreditation.optedIn}.`
                : 'The customer has not opted in.'}
            </p>
            <p className="font-medium">{feeCap.accreditation.standing}</p>
          </>
        ) : null}
        <StatusButton name="intent" value="fee-cap-unexempt" variant="secondary" status={pending ? 'pending' : 'idle'}>
          Remove the exemption
        </StatusButton>
      </Form>
    )
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset className="mt-2 space-y-4">
      {message}
      <p className="text-sm text-gray-700 dark:text-gray-300">
        SEBI&apos;s yearly fee cap per family applies to individual and HUF clients. Accredited investors and
        non-individual clients are outside it: mark them here, with the evidence. The change is audited.
      </p>
      <input type="hidden" name="intent" value="fee-cap-exempt" />
      <SelectField
        label="Exempt as"
        errors={fields.exemption.errors}
        selectProps={getSelectProps(fields.exemption)}
        placeholder="Choose"
        options={FEE_CAP_EXEMPTIONS.map((exemption) => ({
          value: exemption,
          label: FEE_CAP_EXEMPTION_LABELS[exemption],
        }))}
      />
      <TextareaField
        label="Grounds for the exemption"
        hint="Such as who issued the accreditation certificate and what you saw, or the entity and its registration."
        errors={fields.reason.errors}
        textareaProps={{ ...getTextareaProps(fields.reason), rows: 3, maxLength: FEE_CAP_EXEMPTION_REASON_MAX_LENGTH }}
      />
      <Field
        label="Accreditation certificate number"
        hint="Accredited investors only. The cap applies until the customer opts in on their account page."
        errors={fields.certificate.errors}
        inputProps={{
          ...getInputProps(fields.certificate, { type: 'text' }),
          maxLength: ACCREDITATION_CERTIFICATE_MAX_LENGTH,
          autoComplete: 'off',
        }}
      />
      <Field
        label="Certificate valid until"
        hint="Accredited investors only: its last valid day. The cap applies again the day after."
        errors={fields.validUntil.errors}
        inputProps={getInputProps(fields.validUntil, { type: 'date' })}
      />
      <StatusButton status={pending ? 'pending' : 'idle'}>Mark exempt from the fee cap</StatusButton>
    </Form>
  )
}

function CorrectionRequests({
  customerId,
  corrections,
  answer,
}: {
  customerId: string
  corrections: Route.ComponentProps['loaderData']['corrections']
  answer: Extract<Route.ComponentProps['actionData'], { form: 'correction' }> | undefined
}) {
  const pending = useIsPending()
  return (
    <section aria-labelledby="corrections-heading" className="mt-8 max-w-xl">
      <h2 id="corrections-heading" className="text-xl font-semibold">
        Correction requests
      </h2>
      {answer?.message ? <FormMessage tone={answer.ok ? 'success' : 'error'}>{answer.message}</FormMessage> : null}
      {corrections.length === 0 ? (
        <p className="mt-2">None.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {corrections.map((row) => {
            const typedReason = repliedField(answer?.requestId === row.id ? answer.result : undefined, 'reason')
            return (
              <li key={row.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <p>
                  {row.createdAt}: {row.status.toLowerCase()}
                </p>
                <ul>
                  {row.changes.map((change) => (
                    <li key={change.field}>
                      {change.label}: {change.from ?? '(none)'} to{' '}
                      {change.field === 'panCard' ? (
                        <a
                          href={`/admin/customers/${customerId}/pan-card?correction=${row.id}`}
                          className="text-blue-700 underline dark:text-blue-300"
                        >
                          {change.to}
                        </a>
                      ) : (
                        change.to
                      )}
                    </li>
                  ))}
                </ul>
                <p className="text-sm">Reason: {row.reason}</p>
                {row.status === 'PENDING' ? (
                  <Form method="post" className="mt-2 space-y-2">
                    <input type="hidden" name="requestId" value={row.id} />
                    <TextareaField
                      label="Reason for rejecting (sent to the customer)"
                      errors={typedReason.errors}
                      textareaProps={{
                        id: `correction-reason-${row.id}`,
                        name: 'reason',
                        rows: 2,
                        maxLength: CORRECTION_REASON_MAX_CHARS,
                        defaultValue: typedReason.defaultValue,
                      }}
                    />
                    <div className="flex gap-2">
                      <StatusButton name="intent" value="correction-approve" status={pending ? 'pending' : 'idle'}>
                        Approve and check KYC
                      </StatusButton>
                      <StatusButton name="intent" value="correction-reject" status={pending ? 'pending' : 'idle'}>
                        Reject
                      </StatusButton>
                    </div>
                  </Form>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

function KraRecordDecision({
  record,
  answer,
}: {
  record: NonNullable<NonNullable<Route.ComponentProps['loaderData']['customer']['kyc']>['record']>
  answer: Extract<Route.ComponentProps['actionData'], { form: 'kra-record' }> | undefined
}) {
  const pending = useIsPending()
  return (
    <section aria-labelledby="kra-record-heading" className="mt-8 max-w-xl">
      <h2 id="kra-record-heading" className="text-xl font-semibold">
        The KRA&apos;s record differs from the profile
      </h2>
      {answer?.message ? <FormMessage tone={answer.ok ? 'success' : 'error'}>{answer.message}</FormMessage> : null}
      <table className="mt-2 w-full text-left">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Profile</th>
            <th scope="col">KRA record</th>
          </tr>
        </thead>
        <tbody>
          {record.rows.map((row) => (
            <tr key={row.field} className={row.differs ? 'font-medium text-red-700 dark:text-red-400' : undefined}>
              <th scope="row">
                {row.field}
                {row.differs ? ' (differs)' : ''}
              </th>
              <td>{row.profile}</td>
              <td>{row.record}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2" data-testid="kra-record-decision">
        {record.decision}
      </p>
      <Form method="post" preventScrollReset className="mt-2 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="kra-record-decide" />
        <StatusButton name="decision" value="ACCEPTED" status={pending ? 'pending' : 'idle'}>
          Accept: the record is the same person
        </StatusButton>
        <StatusButton
          name="decision"
          value="CORRECTION_ASKED"
          variant="secondary"
          status={pending ? 'pending' : 'idle'}
        >
          Ask the customer to correct their details
        </StatusButton>
      </Form>
    </section>
  )
}
