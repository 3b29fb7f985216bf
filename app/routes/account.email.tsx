import { siteTitle } from '~/domain/business-details'
import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { codeSentMessage, OneTimeCodeForm } from '~/components/one-time-code-form'
import { useIsPending } from '~/components/use-is-pending'
import { confirmEmailSchema, newEmailSchema } from '~/domain/kyc'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { confirmEmailChange, startEmailChange } from '~/server/account/email-change.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/account.email'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Change your e-mail address') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  return { email: user.email ?? '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const formData = await readForm(request)
  const today = new Date()
  if (formData.get('intent') === 'confirm') {
    const submission = parseWithZod(formData, { schema: confirmEmailSchema(today) })
    if (submission.status !== 'success')
      return data(
        { step: 'confirm' as const, sentTo: String(formData.get('email') ?? ''), result: submission.reply() },
        400,
      )
    const confirmed = await confirmEmailChange(user.id, submission.value, context.clientIp)
    if (!confirmed.ok)
      return data(
        {
          step: 'confirm' as const,
          sentTo: submission.value.email,
          result: submission.reply({ fieldErrors: { code: [confirmed.message] } }),
        },
        confirmed.status,
      )
    return redirectWithFlash('/account/corrections', {
      tone: 'success',
      message: `Your e-mail address is now ${submission.value.email}.`,
    })
  }
  const submission = parseWithZod(formData, { schema: newEmailSchema(today) })
  if (submission.status !== 'success')
    return data({ step: 'address' as const, sentTo: '', result: submission.reply() }, 400)
  const started = await startEmailChange(user.id, submission.value.email, context.clientIp)
  if (!started.ok)
    return data(
      { step: 'address' as const, sentTo: '', result: submission.reply({ fieldErrors: { email: [started.message] } }) },
      started.status,
    )
  return { step: 'confirm' as const, sentTo: submission.value.email, result: undefined }
}

export default function AccountEmail({ loaderData, actionData }: Route.ComponentProps) {
  const confirming = actionData?.step === 'confirm'
  return (
    <section className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-semibold">Change your e-mail address</h1>
      <p className="text-sm">Your e-mail address now: {loaderData.email}</p>
      {confirming ? (
        <ConfirmForm sentTo={actionData.sentTo} lastResult={actionData.result} />
      ) : (
        <AddressForm lastResult={actionData?.result} />
      )}
      <p className="text-sm">
        <Link to="/account/corrections" className="underline">
          Back to your KYC details
        </Link>
      </p>
    </section>
  )
}

function AddressForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const pending = useIsPending()
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newEmailSchema(new Date()) }),
  })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
      <Field
        label="New e-mail address"
        hint="We send a code to this address; it changes once you enter the code."
        errors={fields.email.errors}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
      />
      <StatusButton name="intent" value="send-code" status={pending ? 'pending' : 'idle'}>
        Send the code
      </StatusButton>
    </Form>
  )
}

function ConfirmForm({ sentTo, lastResult }: { sentTo: string; lastResult: SubmissionResult<string[]> | undefined }) {
  const pending = useIsPending()
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: confirmEmailSchema(new Date()) }),
  })
  return (
    <OneTimeCodeForm
      formProps={getFormProps(form)}
      sentTo={sentTo}
      notice={codeSentMessage(sentTo)}
      label="Code from the e-mail"
      errors={fields.code.errors}
      codeProps={getInputProps(fields.code, { type: 'text' })}
      intent="confirm"
      submitLabel="Change my e-mail address"
      status={pending ? 'pending' : 'idle'}
    >
      {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
      <input type="hidden" name="email" value={sentTo} />
    </OneTimeCodeForm>
  )
}
