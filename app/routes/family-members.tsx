import { siteTitle } from '~/domain/business-details'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { FamilyMembersFieldset } from '~/components/family-members-fieldset'
import { StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { familyMembersSchema, familyPansReason } from '~/domain/family'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { env } from '~/server/env.server'
import { familyMembersOf, saveFamilyMembers } from '~/server/account/family-members.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/family-members'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Family members') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  return { family: await familyMembersOf(user.id), reason: familyPansReason(env.FEE_CAP_PAISE) }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompleteProfile(request)
  const submission = parseWithZod(await readForm(request), { schema: familyMembersSchema(user.pan) })
  // No status: "Add a family member" or "Remove" without JavaScript; the page comes back with the rows changed.
  if (submission.status !== 'success') return data({ result: submission.reply() }, submission.status ? 400 : 200)
  await saveFamilyMembers(user.id, submission.value.family)
  return redirectWithFlash('/family-members', { tone: 'success', message: 'Family members saved.' })
}

export default function FamilyMembers({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useIsPending()
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { family: loaderData.family.length ? loaderData.family : [{ pan: '', relation: '' }] },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: familyMembersSchema(null) }),
  })
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-semibold">Family members</h1>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        {/* Enter in a field submits with the form's first button: this one saves, not "Remove". */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        <FamilyMembersFieldset form={form} field={fields.family} reason={loaderData.reason} disabled={pending} />
        <StatusButton status={pending ? 'pending' : 'idle'}>Save family members</StatusButton>
      </Form>
    </section>
  )
}
