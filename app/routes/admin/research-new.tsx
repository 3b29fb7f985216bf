import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { ErrorList, Field, FormMessage, repliedField, StatusButton, TextareaField } from '~/components/forms'
import { ResearchCallFields } from '~/components/research-call-fields'
import { ResearchDisclosureFields } from '~/components/research-disclosure-fields'
import { useIsPending } from '~/components/use-is-pending'
import { CallFormSchema, RESEARCH_LIMITS, ResearchFormSchema } from '~/domain/research'
import {
  RESEARCH_ATTACHMENT_ACCEPT,
  RESEARCH_ATTACHMENT_FIELD_NAME,
  RESEARCH_ATTACHMENT_MESSAGES,
} from '~/domain/research-attachment'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { readResearchForm, type ResearchFormRead } from '~/server/research/attachment.server'
import { discardReceivedFile } from '~/server/http/received-file.server'
import { createResearchDraft, researchServiceChoices } from '~/server/research/items.server'
import type { Route } from './+types/research-new'

// The analyst's form (docs/research.md), checked on the server only: it works the same without
// JavaScript. Saving makes a draft; its page previews it and publishes it. ?kind=call is the form
// for a call: the same fields, the body as its rationale, and the call's terms.

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  { title: siteTitle(matches, `New research ${loaderData?.kind ?? 'report'} | Admin`) },
]

const kindOf = (value: unknown) => (value === 'call' ? 'call' : 'report')

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return { kind: kindOf(new URL(request.url).searchParams.get('kind')), services: await researchServiceChoices() }
}

/** The attachment's refusal, or a form error beside a good PDF, is said on its field; the typed text comes back. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const read = await readResearchForm(request)
  try {
    return await answerResearchForm(admin.id, read)
  } finally {
    // The PDF is moved into storage by now, or not to be kept (decision 058).
    if (read.ok) await discardReceivedFile(read.attachment?.file)
  }
}

async function answerResearchForm(adminId: string, read: ResearchFormRead) {
  const schema = kindOf(read.fields.get('kind')) === 'call' ? CallFormSchema : ResearchFormSchema
  const submission = parseWithZod(read.fields, { schema })
  const onAttachment = (message: string) => ({ fieldErrors: { [RESEARCH_ATTACHMENT_FIELD_NAME]: [message] } })
  if (!read.ok)
    return data(
      { result: submission.reply(onAttachment(read.message)) },
      { status: read.status, headers: read.headers },
    )
  if (submission.status !== 'success')
    return data(
      { result: submission.reply(read.attachment ? onAttachment(RESEARCH_ATTACHMENT_MESSAGES.chooseAgain) : {}) },
      400,
    )
  const draft = await createResearchDraft(adminId, submission.value, new Date(), read.attachment)
  if (!draft.ok) return data({ result: submission.reply({ fieldErrors: { [draft.field]: [draft.message] } }) }, 400)
  return redirect(`/admin/research/${draft.id}`)
}

export default function NewResearch({ loaderData: { kind, services }, actionData }: Route.ComponentProps) {
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
      <h1 className="text-2xl font-semibold">New research {kind}</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        Saving keeps it as a draft: you see it as subscribers will, then publish it. Once published it is signed and
        never changes.{' '}
        <Link to={kind === 'call' ? '/admin/research/new' : '/admin/research/new?kind=call'} className="underline">
          {kind === 'call' ? 'Write a report instead' : 'Write a call instead'}
        </Link>
      </p>
      {result?.error ? (
        <div className="mt-4">
          <FormMessage tone="error">Please correct the fields marked below.</FormMessage>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="mt-4 space-y-5">
        <input type="hidden" name="kind" value={kind} />
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
        {kind === 'call' ? <ResearchCallFields field={field} typedTargets={result?.initialValue?.targets} /> : null}
        <TextareaField
          label={kind === 'call' ? 'Rationale' : 'Body'}
          hint={`${kind === 'call' ? 'Why: required for every call. ' : ''}Plain text: a blank line starts a new paragraph, "## " starts a heading, "- " a list item; links as [words](https://...). At most ${RESEARCH_LIMITS.bodyMaxChars.toLocaleString('en-IN')} characters.`}
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
        <ResearchDisclosureFields field={field} />
        <Field
          label="PDF attachment (optional)"
          hint="One PDF document, up to 10 MB. Subscribers download it from the item's page; its SHA-256 is signed with the item."
          errors={field(RESEARCH_ATTACHMENT_FIELD_NAME).errors}
          inputProps={{ name: RESEARCH_ATTACHMENT_FIELD_NAME, type: 'file', accept: RESEARCH_ATTACHMENT_ACCEPT }}
        />
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
