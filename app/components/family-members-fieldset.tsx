import { getInputProps, getSelectProps, type FieldMetadata, type FormMetadata } from '@conform-to/react'
import { FAMILY_MEMBERS_MAX, FAMILY_RELATION_LABELS, FAMILY_RELATIONS } from '~/domain/family-relations'
import { ErrorList, Field, SelectField, secondaryButtonClass } from './forms'

/** One row as the form holds it: both may be empty (an unused row). */
export type FamilyRow = { pan?: string; relation?: string }

const RELATION_OPTIONS = FAMILY_RELATIONS.map((relation) => ({
  value: relation,
  label: FAMILY_RELATION_LABELS[relation],
}))

/**
 * The family members' PANs: a row per member (PAN and relation), "Remove" on each and "Add a
 * family member" below. The buttons are Conform's list intents: with JavaScript they change the
 * rows in place, without it they post the form and the page comes back with the row added or
 * removed, what was typed kept. Each field is named by its row ("Family member 2: PAN"), so an
 * error says which row is wrong. Without JavaScript the row buttons post to this fieldset's anchor
 * (FAMILY_MEMBERS_ANCHOR), so the page comes back where the customer was, not at its top.
 */
export const FAMILY_MEMBERS_ANCHOR = 'family-members'

export function FamilyMembersFieldset({
  form,
  field,
  reason,
  disabled = false,
}: {
  // Conform's metadata for the form holding a `family` list.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  form: Pick<FormMetadata<any>, 'insert' | 'remove'>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<(FamilyRow | undefined)[] | undefined, any>
  reason: string
  /** While the form is being sent: the row buttons wait too. */
  disabled?: boolean
}) {
  const rows = field.getFieldList()
  const hintId = `${field.id}-hint`
  const errorId = `${field.id}-errors`
  return (
    <fieldset
      id={FAMILY_MEMBERS_ANCHOR}
      className="scroll-mt-20 space-y-3 rounded-md border border-gray-200 p-4 dark:border-gray-700"
      aria-describedby={[hintId, field.errors?.length ? errorId : null].filter(Boolean).join(' ')}
    >
      <legend className="px-1 font-medium">Family members (optional)</legend>
      <p id={hintId} className="text-sm text-gray-700 dark:text-gray-300">
        {reason} Add the PANs of your dependent spouse, children and parents.
      </p>
      <ErrorList id={errorId} errors={field.errors} />
      {rows.map((row, index) => {
        const member = row.getFieldset()
        const label = `Family member ${index + 1}`
        return (
          <div key={row.key} className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-start">
            <Field
              label={`${label}: PAN`}
              errors={member.pan.errors}
              inputProps={{
                ...getInputProps(member.pan, { type: 'text' }),
                autoCapitalize: 'characters',
                maxLength: 10,
              }}
            />
            <SelectField
              label={`${label}: relation`}
              errors={member.relation.errors}
              selectProps={getSelectProps(member.relation)}
              placeholder="Choose"
              options={RELATION_OPTIONS}
            />
            <button
              {...form.remove.getButtonProps({ name: field.name, index })}
              formAction={`#${FAMILY_MEMBERS_ANCHOR}`}
              disabled={disabled}
              className={`${secondaryButtonClass} sm:mt-6`}
            >
              Remove<span className="sr-only"> family member {index + 1}</span>
            </button>
          </div>
        )
      })}
      {rows.length < FAMILY_MEMBERS_MAX ? (
        <button
          {...form.insert.getButtonProps({ name: field.name })}
          formAction={`#${FAMILY_MEMBERS_ANCHOR}`}
          disabled={disabled}
          className={secondaryButtonClass}
        >
          Add a family member
        </button>
      ) : null}
    </fieldset>
  )
}
