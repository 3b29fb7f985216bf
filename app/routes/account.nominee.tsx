import { siteTitle } from '~/domain/business-details'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { dataNomineeSchema } from '~/domain/data-nominee'
import { dataNomineeOf, removeDataNominee, saveDataNominee } from '~/server/account/data-nominee.server'
import { requireUser } from '~/server/auth/sign-in.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/account.nominee'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Nominee for your data rights') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { nominee: await dataNomineeOf(user.id) }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  const formData = await readForm(request)
  if (formData.get('intent') === 'remove') {
    await removeDataNominee(user.id)
    return redirectWithFlash('/account#nominee', { tone: 'success', message: 'Your nominee is removed.' })
  }
  const submission = parseWithZod(formData, { schema: dataNomineeSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  await saveDataNominee(user.id, submission.value)
  return redirectWithFlash('/account#nominee', {
    tone: 'success',
    message: `${submission.value.name} is your nominee for your data rights.`,
  })
}

export default function AccountNominee({ loaderData, actionData }: Route.ComponentProps) {
  const { nominee } = loaderData
  const saving = useIsPending({ fields: { intent: 'save' } })
  const removing = useIsPending({ fields: { intent: 'remove' } })
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: nominee
      ? { name: nominee.name, relationship: nominee.relationship, phone: nominee.phone, email: nominee.email }
      : undefined,
    shouldValidate: 'onBlur',
    // A message clears as the field is put right, not on the blur of pressing the button: that would
    // move the button from under the press, and the press would be lost.
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dataNomineeSchema }),
  })
  return (
    <section className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-semibold">Nominee for your data rights</h1>
      <p className="text-sm">
        The person you name here may use your rights over your personal data (to see, correct or erase it, and to
        complain) if you die or cannot use them yourself, as the{' '}
        <Link to="/privacy-policy#your-rights" className="underline">
          privacy policy
        </Link>{' '}
        says. We record when you name or change your nominee. Tell them you named them.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
        <Field
          label="Nominee's name"
          errors={fields.name.errors}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="Relationship to you"
          hint='Like "Spouse", "Daughter" or "Friend".'
          errors={fields.relationship.errors}
          inputProps={{ ...getInputProps(fields.relationship, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="Nominee's mobile number"
          hint="An Indian mobile, or + and the country code for another country. A mobile number or an e-mail address is needed."
          errors={fields.phone.errors}
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'off' }}
        />
        <Field
          label="Nominee's e-mail address"
          errors={fields.email.errors}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }}
        />
        <StatusButton name="intent" value="save" status={saving ? 'pending' : 'idle'}>
          {nominee ? 'Save the change' : 'Name this nominee'}
        </StatusButton>
      </Form>
      {nominee ? (
        <Form method="post">
          <StatusButton name="intent" value="remove" variant="secondary" status={removing ? 'pending' : 'idle'}>
            Remove my nominee
          </StatusButton>
        </Form>
      ) : null}
      <p className="text-sm">
        <Link to="/account#nominee" className="underline">
          Back to your data
        </Link>
      </p>
    </section>
  )
}
