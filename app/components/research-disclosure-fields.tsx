import { RadioGroupField, TextareaField } from '~/components/forms'
import { DISCLOSURE_QUESTIONS, RESEARCH_LIMITS } from '~/domain/research'

const YES_NO = [
  { value: 'no', label: 'No' },
  { value: 'yes', label: 'Yes' },
] as const

type Replied = (name: string) => { errors?: readonly string[] | null; defaultValue?: string }

/** The disclosures every research item asks, answered on the form (reports, calls and follow-ups). */
export function ResearchDisclosureFields({ field }: { field: Replied }) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-lg font-semibold">Disclosures</legend>
      {DISCLOSURE_QUESTIONS.map((question) => (
        <RadioGroupField
          key={question.name}
          legend={question.question}
          name={question.name}
          options={YES_NO}
          defaultValue={field(question.name).defaultValue}
          errors={field(question.name).errors}
        />
      ))}
      <TextareaField
        label="Any other material conflict of interest"
        hint="Write None if there is none."
        errors={field('otherConflict').errors}
        textareaProps={{
          name: 'otherConflict',
          rows: 2,
          defaultValue: field('otherConflict').defaultValue,
          maxLength: RESEARCH_LIMITS.otherConflictMaxChars,
        }}
      />
    </fieldset>
  )
}
