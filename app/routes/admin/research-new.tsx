import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import {
  ErrorList,
  Field,
  FormMessage,
  RadioGroupField,
  repliedField,
  StatusButton,
  TextareaField,
} from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { DISCLOSURE_QUESTIONS, RESEARCH_LIMITS, ResearchFormSchema } from '~/domain/research'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { readForm } from '~/server/http/form-data.server'
import { createResearchDraft, researchServiceChoices } from '~/server/research/items.server'
import type { Route } from './+types/research-new'

// The analyst's form (docs/research.md), checked on the server only: it works the same without
// JavaScript. Saving makes a draft; its page previews it and publishes it.

export const meta: Route.MetaFunction = () => [{ title: 'New research report | Admin | Research Store' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return { services: await researchServiceChoices() }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), { schema: ResearchFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const draft = await createResearchDraft(admin.id, submission.value)
  if (!draft.ok) return data({ result: submission.reply({ fieldErrors: { [draft.field]: [draft.message] } }) }, 400)
  return redirect(`/admin/research/${draft.id}`)
}

const YES_NO = [
  { value: 'no', label: 'No' },
  { value: 'yes', label: 'Yes' },
] as const

export default function NewResearch({ loaderData: { services }, actionData }: Route.ComponentProps) {
  const pending = useIsPending()
  const result = actionData?.result
  const field = (name: string) => repliedField(result, name)
  const typedServices = result?.initialValue?.serviceIds
  const chosen = new Set(
    Array.isArray(typedServices) ? typedServices : typeof typedServices === 'string' ? [typedServices] : [],
  )
  const serviceErrors = result?.error?.serviceIds ?? undefined
  return (
    <section className="max-w-3xl">
      <h1 className="text-2xl font-semibold">New research report</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        Saving keeps it as a draft: you see it as subscribers will, then publish it. Once published it is signed and
        never changes.
      </p>
      {result?.error ? (
        <div className="mt-4">
          <FormMessage tone="error">Please correct the fields marked below.</FormMessage>
        </div>
      ) : null}
      <Form method="post" className="mt-4 space-y-5">
        <Field
          label="Title"
          errors={field('title').errors}
          inputProps={{
            name: 'title',
            type: 'text',
            defaultValue: field('title').defaultValue,
            maxLength: RESEARCH_LIMITS.titleMaxChars,
          }}
        />
        <TextareaField
          label="Body"
          hint={`Plain text: a blank line starts a new paragraph, "## " starts a heading, "- " a list item; links as [words](https://...). At most ${RESEARCH_LIMITS.bodyMaxChars.toLocaleString('en-IN')} characters.`}
          errors={field('body').errors}
          textareaProps={{ name: 'body', rows: 14, defaultValue: field('body').defaultValue }}
        />
        <fieldset aria-describedby={serviceErrors ? 'service-errors' : undefined}>
          <legend className="text-sm font-medium">Services it is for</legend>
          <div className="mt-1 space-y-1">
            {services.map((service) => (
              <label key={service.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="serviceIds"
                  value={service.id}
                  defaultChecked={chosen.has(service.id)}
                  className="h-5 w-5 accent-green-700"
                />
                {service.name}
                {service.active ? '' : ' (off sale)'}
              </label>
            ))}
          </div>
          <ErrorList id="service-errors" errors={serviceErrors} />
        </fieldset>
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
        <div className="flex flex-wrap items-center gap-4">
          <StatusButton status={pending ? 'pending' : 'idle'}>Save draft</StatusButton>
          <Link to="/admin/research" className="underline">
            Back to research
          </Link>
        </div>
      </Form>
    </section>
  )
}
