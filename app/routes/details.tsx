import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useNavigation } from 'react-router'
import { Field, FormMessage, primaryButtonClass } from '~/components/forms'
import { indiaIsoDate, latestAdultBirthDate } from '~/domain/dates'
import { profileDetailsSchema, profileStep, type ProfileStep } from '~/domain/profile'
import { safeRedirect } from '~/domain/redirect'
import { requireUser } from '~/server/auth.server'
import { saveProfileDetails } from '~/server/profile.server'
import type { Route } from './+types/details'

export const meta: Route.MetaFunction = () => [{ title: 'Your details | Research Store' }]

const STEP_TITLES: Record<Exclude<ProfileStep, 'complete'>, string> = {
  details: 'Step 1 of 3: Your details',
  'pan-card': 'Step 2 of 3: PAN card',
  agreement: 'Step 3 of 3: Terms and Agreement',
}

function afterWizard(request: Request) {
  return redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const step = profileStep(user)
  if (step === 'complete') throw afterWizard(request)
  const today = new Date()
  return {
    step,
    latestBirthDate: latestAdultBirthDate(today),
    saved: {
      name: user.name ?? '',
      email: user.email ?? '',
      dob: user.dateOfBirth ? indiaIsoDate(user.dateOfBirth) : '',
      pan: user.pan ?? '',
    },
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: profileDetailsSchema(new Date()) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  await saveProfileDetails(user.id, submission.value)
  const url = new URL(request.url)
  return profileStep({ ...user, ...submission.value, dateOfBirth: new Date(submission.value.dob) }) === 'complete'
    ? afterWizard(request)
    : redirect(`${url.pathname}${url.search}`)
}

export default function Details({ loaderData, actionData }: Route.ComponentProps) {
  const { step } = loaderData
  return (
    <section className="mx-auto max-w-lg">
      <h1 className="text-2xl font-semibold">Enter Details</h1>
      <h2 className="mt-2 text-lg font-medium">{STEP_TITLES[step]}</h2>
      <div className="mt-4">
        {step === 'details' ? (
          <DetailsStep latestBirthDate={loaderData.latestBirthDate} saved={loaderData.saved} lastResult={actionData?.result} />
        ) : (
          <FormMessage tone="info">This step is coming next.</FormMessage>
        )}
      </div>
    </section>
  )
}

function DetailsStep({
  latestBirthDate,
  saved,
  lastResult,
}: {
  latestBirthDate: string
  saved: Route.ComponentProps['loaderData']['saved']
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const busy = useNavigation().state !== 'idle'
  const schema = profileDetailsSchema(new Date())
  const [form, fields] = useForm({
    lastResult,
    defaultValue: saved,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const transformCase = (change: 'lower' | 'upper') => (event: React.FormEvent<HTMLInputElement>) => {
    const input = event.currentTarget
    const cased = change === 'lower' ? input.value.toLowerCase() : input.value.toUpperCase()
    if (cased !== input.value) input.value = cased
  }
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
      <Field
        label="Name"
        hint="Letters and spaces, 3 to 24 characters, at most 4 words."
        errors={fields.name.errors}
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'name', onInput: transformCase('lower') }}
      />
      <Field
        label="E-mail"
        errors={fields.email.errors}
        inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email', onInput: transformCase('lower') }}
      />
      <Field
        label="Date of birth"
        hint="You must be 18 or older."
        errors={fields.dob.errors}
        inputProps={{ ...getInputProps(fields.dob, { type: 'date' }), max: latestBirthDate, autoComplete: 'bday' }}
      />
      <Field
        label="PAN"
        hint="5 letters, 4 digits and 1 letter, as on your PAN card."
        errors={fields.pan.errors}
        inputProps={{
          ...getInputProps(fields.pan, { type: 'text' }),
          autoCapitalize: 'characters',
          maxLength: 10,
          onInput: transformCase('upper'),
        }}
      />
      <button type="submit" className={primaryButtonClass} disabled={busy}>
        Save and continue
      </button>
    </Form>
  )
}
