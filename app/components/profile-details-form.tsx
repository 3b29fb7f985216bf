import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { useEffect, useState } from 'react'
import { Form } from 'react-router'
import type { getZodConstraint } from '@conform-to/zod/v4'
import { type FamilyRow, FamilyMembersFieldset } from '~/components/family-members-fieldset'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import type { parseDetailsForm } from '~/domain/details-form'

/** What the customer saved before (or empty strings), and at least one family row. */
type SavedProfileDetails = { name: string; email: string; dob: string; pan: string; family: FamilyRow[] }

/**
 * Step 1's checks in the browser, loaded once the page is up: the form works before they arrive (the
 * server checks every submission), and the other steps never load them.
 */
function useDetailsChecks() {
  const [parse, setParse] = useState<typeof parseDetailsForm>()
  useEffect(() => {
    let mounted = true
    void import('~/domain/details-form').then((module) => {
      if (mounted) setParse(() => module.parseDetailsForm)
    })
    return () => {
      mounted = false
    }
  }, [])
  return parse
}

/** Step 1 of /details: name, e-mail, date of birth, PAN and the family members' PANs. */
export function ProfileDetailsForm({
  latestBirthDate,
  constraint,
  familyReason,
  saved,
  lastResult,
}: {
  latestBirthDate: string
  constraint: ReturnType<typeof getZodConstraint>
  familyReason: string
  saved: SavedProfileDetails
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const pending = useIsPending()
  const parse = useDetailsChecks()
  const [form, fields] = useForm({
    lastResult,
    defaultValue: saved,
    constraint,
    // Until the checks arrive the server checks the form when it is saved, not a field when it is left:
    // that would be a round trip that makes the form pending, and a press of Save meanwhile would be lost.
    shouldValidate: parse ? 'onBlur' : 'onSubmit',
    shouldRevalidate: parse ? 'onInput' : 'onSubmit',
    onValidate: parse ? ({ formData }) => parse(formData) : undefined,
  })
  const transformCase = (change: 'lower' | 'upper') => (event: React.FormEvent<HTMLInputElement>) => {
    const input = event.currentTarget
    const cased = change === 'lower' ? input.value.toLowerCase() : input.value.toUpperCase()
    if (cased !== input.value) input.value = cased
  }
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      {/* Enter in a field submits with the form's first button: this one saves, not "Remove". */}
      <button type="submit" hidden tabIndex={-1} aria-hidden="true" disabled={pending} />
      {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
      <Field
        label="Name"
        hint="As on your PAN card, for KYC and your invoices. Letters and spaces, 3 to 24 characters, at most 4 words."
        errors={fields.name.errors}
        inputProps={{
          ...getInputProps(fields.name, { type: 'text' }),
          autoComplete: 'name',
          autoCapitalize: 'words',
        }}
      />
      <Field
        label="E-mail"
        hint="For your receipts and invoices, your copy of the terms you accept, and the research you subscribe to."
        errors={fields.email.errors}
        inputProps={{
          ...getInputProps(fields.email, { type: 'email' }),
          autoComplete: 'email',
          onInput: transformCase('lower'),
        }}
      />
      <Field
        label="Date of birth"
        hint="For KYC, and to check that you are 18 or older (you must be)."
        errors={fields.dob.errors}
        inputProps={{ ...getInputProps(fields.dob, { type: 'date' }), max: latestBirthDate, autoComplete: 'bday' }}
      />
      <Field
        label="PAN"
        hint="For KYC, which SEBI requires, and SEBI's fee limit per family. 5 letters, 4 digits and 1 letter, as on your PAN card."
        errors={fields.pan.errors}
        inputProps={{
          ...getInputProps(fields.pan, { type: 'text' }),
          autoCapitalize: 'characters',
          maxLength: 10,
          onInput: transformCase('upper'),
        }}
      />
      <FamilyMembersFieldset form={form} field={fields.family} reason={familyReason} disabled={pending} />
      <StatusButton status={pending ? 'pending' : 'idle'}>Save and continue</StatusButton>
    </Form>
  )
}
