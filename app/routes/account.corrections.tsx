import { siteTitle } from '~/domain/business-details'
import { maskPan } from '~/domain/pan'
import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, StatusButton, TextareaField } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { formatIndiaDate, formatIndiaDateTime, latestAdultBirthDate } from '~/domain/dates'
import {
  CORRECTION_CHANGE_LABELS,
  CORRECTION_PAN_CARD_FIELD,
  CORRECTION_REASON_MAX_CHARS,
  correctionRequestSchema,
  kycAdvice,
  kycAllowsPayment,
  KYC_RECHECK_BUTTON,
  KYC_STATUS_LABELS,
} from '~/domain/kyc'
import { kraRecordPaymentRefusal } from '~/domain/kra-record-match'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { kraRecordStateOf } from '~/server/kyc/kra-record.server'
import { businessDetails } from '~/server/business.server'
import { correctionRequestsOf, fileCorrectionRequest, kycDetailsOf } from '~/server/account/corrections.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { readPanCardUpload } from '~/server/kyc/pan-card-image.server'
import { discardReceivedFile } from '~/server/http/received-file.server'
import { PAN_CARD_ACCEPT, PAN_CARD_MESSAGES } from '~/domain/pan-card-image'
import { recheckKyc } from '~/server/account/profile.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/account.corrections'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Your KYC details') }]

const STATUS_LABELS = { PENDING: 'Waiting for our team', APPROVED: 'Approved', REJECTED: 'Rejected' } as const

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireCompleteProfile(request)
  const [user, requests] = await Promise.all([kycDetailsOf(session.id), correctionRequestsOf(session.id)])
  const recordRefusal = kycAllowsPayment(user.kycStatus)
    ? kraRecordPaymentRefusal(kraRecordStateOf(user), businessDetails.supportEmail, 'kyc-details-page')
    : undefined
  return {
    details: {
      name: user.name ?? '',
      // Only displayed here (the correction form asks for a new one): masked.
      pan: maskPan(user.pan) ?? '',
      dob: user.dateOfBirth ? formatIndiaDate(user.dateOfBirth) : '',
    },
    kyc: {
      label: user.kycStatus ? KYC_STATUS_LABELS[user.kycStatus] : 'Not checked',
      allowsPayment: kycAllowsPayment(user.kycStatus) && !recordRefusal,
      advice: recordRefusal ?? kycAdvice(user.kycStatus, businessDetails.supportEmail, 'kyc-details-page'),
      checkedAt: user.kycCheckedAt ? formatIndiaDateTime(user.kycCheckedAt) : null,
      // What the KRA holds, when it is not what the profile says (the customer's own data).
      record: recordRefusal
        ? {
            name: user.kycNameOnRecord ?? 'none given',
            dob: user.kycDobOnRecord ? formatIndiaDate(user.kycDobOnRecord) : 'none given',
          }
        : null,
    },
    latestBirthDate: latestAdultBirthDate(new Date()),
    requests: requests.map((row) => ({
      id: row.id,
      status: STATUS_LABELS[row.status],
      createdAt: formatIndiaDateTime(row.createdAt),
      changes: row.changes.map((change) => ({
        ...change,
        ...(change.field === 'pan' ? { from: maskPan(change.from), to: maskPan(change.to) } : {}),
        label: CORRECTION_CHANGE_LABELS[change.field],
      })),
    })),
    hasPending: requests.some((row) => row.status === 'PENDING'),
  }
}

/**
 * The correction form posts multipart (it may carry a new PAN card image, read with the wizard's
 * limits); "Check my KYC again" a plain form.
 */
async function readCorrectionForm(request: Request) {
  if (!request.headers.get('Content-Type')?.startsWith('multipart/form-data'))
    return { formData: await readForm(request), panCard: undefined, refusal: undefined }
  const upload = await readPanCardUpload(request, { fieldName: CORRECTION_PAN_CARD_FIELD })
  if (upload.ok) {
    upload.fields.set(CORRECTION_PAN_CARD_FIELD, 'chosen')
    return { formData: upload.fields, panCard: upload, refusal: undefined }
  }
  // No file chosen: a request for the other fields.
  if (upload.message === PAN_CARD_MESSAGES.missing)
    return { formData: upload.fields, panCard: undefined, refusal: undefined }
  return { formData: upload.fields, panCard: undefined, refusal: upload }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const read = await readCorrectionForm(request)
  try {
    return await answerCorrectionForm(user, read)
  } finally {
    // A new PAN card image is moved into storage by now, or not to be kept (decision 058).
    await discardReceivedFile(read.panCard?.file)
  }
}

async function answerCorrectionForm(
  user: { id: string },
  { formData, panCard, refusal }: Awaited<ReturnType<typeof readCorrectionForm>>,
) {
  if (formData.get('intent') === 'recheck') {
    const outcome = await recheckKyc(user.id)
    if (!outcome.ok) return data({ error: outcome.message, result: undefined }, outcome.status)
    return redirectWithFlash('/account/corrections', {
      tone: 'success',
      message: `The KRA answered: ${KYC_STATUS_LABELS[outcome.kyc.status]}.`,
    })
  }
  const submission = parseWithZod(formData, { schema: correctionRequestSchema(new Date(), { withPanCard: true }) })
  if (refusal)
    return data(
      {
        result: submission.reply({ fieldErrors: { [CORRECTION_PAN_CARD_FIELD]: [refusal.message] } }),
        error: undefined,
      },
      { status: refusal.status, headers: refusal.headers },
    )
  if (submission.status !== 'success') return data({ result: submission.reply(), error: undefined }, 400)
  const outcome = await fileCorrectionRequest(user.id, submission.value, new Date(), panCard)
  if (!outcome.ok)
    return data({ result: submission.reply({ formErrors: [outcome.message] }), error: undefined }, outcome.status)
  return redirectWithFlash('/account/corrections', { tone: 'success', message: outcome.message })
}

export default function AccountCorrections({ loaderData, actionData }: Route.ComponentProps) {
  const { details, kyc, requests } = loaderData
  const checking = useIsPending({ fields: { intent: 'recheck' } })
  const filing = useIsPending({ fields: { intent: 'correction' } })
  const schema = correctionRequestSchema(new Date(), { withPanCard: true })
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  return (
    <section className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl font-semibold">Your KYC details</h1>
      <div className="space-y-2" data-testid="kyc-status">
        <h2 className="text-lg font-medium">KYC at the KRA: {kyc.label}</h2>
        {kyc.checkedAt ? <p className="text-sm">Last checked {kyc.checkedAt}.</p> : null}
        <FormMessage tone={kyc.allowsPayment ? 'success' : 'info'}>{kyc.advice}</FormMessage>
        {kyc.record ? (
          <p>
            The KRA holds: name {kyc.record.name}, date of birth {kyc.record.dob}.
          </p>
        ) : null}
        {actionData?.error ? <FormMessage tone="error">{actionData.error}</FormMessage> : null}
        <Form method="post">
          <StatusButton name="intent" value="recheck" status={checking ? 'pending' : 'idle'}>
            {KYC_RECHECK_BUTTON}
          </StatusButton>
        </Form>
      </div>
      <div>
        <h2 className="text-lg font-medium">What we hold</h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">Name</dt>
          <dd>{details.name}</dd>
          <dt className="font-medium">PAN</dt>
          <dd>{details.pan}</dd>
          <dt className="font-medium">Date of birth</dt>
          <dd>{details.dob}</dd>
        </dl>
        <p className="mt-2 text-sm">
          Your e-mail address you can change yourself:{' '}
          <Link to="/account/email" className="underline">
            change your e-mail address
          </Link>
          .
        </p>
      </div>
      <div>
        <h2 className="text-lg font-medium">Ask for a correction</h2>
        <p className="mt-1 text-sm">
          Your profile is complete, so your name, PAN, date of birth and PAN card image change only when our team
          approves a correction. Fill in only what is wrong; we check the new details with the KRA when we approve them.
        </p>
        {loaderData.hasPending ? (
          <div className="mt-2">
            <FormMessage tone="info">Your correction request is waiting for our team.</FormMessage>
          </div>
        ) : (
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-3 space-y-4">
            {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
            <Field
              label="Correct name"
              hint="Letters and spaces, 3 to 24 characters, at most 4 words. Leave blank if right."
              errors={fields.name.errors}
              inputProps={{ ...getInputProps(fields.name, { type: 'text' }), required: false, autoComplete: 'name' }}
            />
            <Field
              label="Correct PAN"
              hint="5 letters, 4 digits and 1 letter. Leave blank if right."
              errors={fields.pan.errors}
              inputProps={{ ...getInputProps(fields.pan, { type: 'text' }), required: false, maxLength: 10 }}
            />
            <Field
              label="Correct date of birth"
              hint="Leave blank if right."
              errors={fields.dob.errors}
              inputProps={{
                ...getInputProps(fields.dob, { type: 'date' }),
                required: false,
                max: loaderData.latestBirthDate,
              }}
            />
            <Field
              label="New PAN card image"
              hint="JPEG, PNG or WebP, under 10MB. Leave empty if the one we hold is right."
              errors={fields.panCard.errors}
              inputProps={{
                ...getInputProps(fields.panCard, { type: 'file' }),
                required: false,
                accept: PAN_CARD_ACCEPT,
              }}
            />
            <TextareaField
              label="Why the details need correcting"
              errors={fields.reason.errors}
              textareaProps={{
                ...getTextareaProps(fields.reason),
                maxLength: CORRECTION_REASON_MAX_CHARS,
                required: true,
              }}
            />
            <StatusButton name="intent" value="correction" status={filing ? 'pending' : 'idle'}>
              Send correction request
            </StatusButton>
          </Form>
        )}
      </div>
      {requests.length ? (
        <div>
          <h2 className="text-lg font-medium">Your correction requests</h2>
          <ul className="mt-2 space-y-2 text-sm">
            {requests.map((row) => (
              <li key={row.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                <p>
                  {row.createdAt}: {row.status}
                </p>
                <ul>
                  {row.changes.map((change) => (
                    <li key={change.field}>
                      {change.label}: {change.from ?? '(none)'} to {change.to}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}
