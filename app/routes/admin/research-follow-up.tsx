import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { Field, FormMessage, RadioGroupField, repliedField, StatusButton, TextareaField } from '~/components/forms'
import { TargetFields } from '~/components/research-call-fields'
import { ResearchDisclosureFields } from '~/components/research-disclosure-fields'
import { useIsPending } from '~/components/use-is-pending'
import { FollowUpFormSchema, RESEARCH_LIMITS } from '~/domain/research'
import { callLines } from '~/domain/research-calls'
import { FOLLOW_UP_WORDS, followUpKindsFor } from '~/domain/research-follow-ups'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { readForm } from '~/server/http/form-data.server'
import { callOf } from '~/server/research/items.server'
import {
  createFollowUpDraft,
  followableResearchItem,
  publishedFollowUpKinds,
} from '~/server/research/follow-ups.server'
import type { Route } from './+types/research-follow-up'

// A correction, withdrawal or call follow-up of a published item (docs/research.md): saved as a
// draft naming its original; its page previews it and publishes it to the original's roll.

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  { title: siteTitle(matches, `Follow-up of ${loaderData?.original.title ?? 'research'} | Admin`) },
]

async function originalOr404(itemId: string) {
  const original = isUuid(itemId) ? await followableResearchItem(itemId) : null
  if (!original) throw data('Not found', { status: 404 })
  return original
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const original = await originalOr404(params.itemId)
  const call = callOf(original)
  return {
    original: { id: original.id, title: original.title },
    kinds: followUpKindsFor(call ? 'CALL' : 'REPORT', publishedFollowUpKinds(original)),
    callLines: call ? callLines(call) : [],
    disclosures: {
      financialInterest: original.financialInterest,
      ownershipOnePercent: original.ownershipOnePercent,
      compensationPastYear: original.compensationPastYear,
      aiToolsUsed: original.aiToolsUsed,
      otherConflict: original.otherConflict,
    },
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const original = await originalOr404(params.itemId)
  const submission = parseWithZod(await readForm(request), { schema: FollowUpFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const draft = await createFollowUpDraft(admin.id, original.id, submission.value)
  if (!draft.ok && draft.reason === 'not-followable') throw data('Not found', { status: 404 })
  if (!draft.ok) return data({ result: submission.reply({ fieldErrors: { [draft.field]: [draft.message] } }) }, 400)
  return redirect(`/admin/research/${draft.id}`)
}

export default function ResearchFollowUp({ loaderData, actionData }: Route.ComponentProps) {
  const { original, kinds, callLines, disclosures } = loaderData
  const pending = useIsPending()
  const result = actionData?.result
  const field = (name: string) => {
    const replied = repliedField(result, name)
    if (result || !(name in disclosures)) return replied
    const answer = disclosures[name as keyof typeof disclosures]
    return { ...replied, defaultValue: typeof answer === 'boolean' ? (answer ? 'yes' : 'no') : answer }
  }
  const price = (name: string, label: string, hint: string) => (
    <Field
      label={label}
      hint={hint}
      errors={field(name).errors}
      inputProps={{ name, type: 'text', inputMode: 'decimal', defaultValue: field(name).defaultValue }}
    />
  )
  return (
    <section className="max-w-3xl">
      <p className="text-sm">
        <Link to={`/admin/research/${original.id}`} className="underline">
          Back to {original.title}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Follow-up of {original.title}</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        Saving keeps it as a draft. Once published it is signed, the original shows a notice linking to it, and it is
        sent to the customers the original reached, no one else.
      </p>
      {callLines.length ? (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 text-sm">
          {callLines.map((line) => (
            <div key={line.label} className="contents">
              <dt className="font-medium">{line.label}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {result?.error ? (
        <div className="mt-4">
          <FormMessage tone="error">Please correct the fields marked below.</FormMessage>
        </div>
      ) : null}
      <Form method="post" className="mt-4 space-y-5">
        {kinds.length === 1 ? (
          <p>This item has ended (withdrawn, stop-loss hit or closed): only a correction can follow it.</p>
        ) : null}
        <RadioGroupField
          legend="What is it?"
          name="kind"
          options={kinds.map((kind) => ({ value: kind, label: FOLLOW_UP_WORDS[kind] }))}
          defaultValue={field('kind').defaultValue}
          errors={field('kind').errors}
        />
        <TextareaField
          label="Note"
          hint={`What changed and why, in the body's plain text. At most ${RESEARCH_LIMITS.bodyMaxChars.toLocaleString('en-IN')} characters.`}
          errors={field('body').errors}
          textareaProps={{ name: 'body', rows: 8, defaultValue: field('body').defaultValue }}
        />
        {kinds.includes('TARGET_REVISED') ? (
          <>
            <TargetFields
              legend="New targets (only for Target revised)"
              typed={result?.initialValue?.targets}
              errors={field('targets').errors}
            />
            {price('stopLoss', 'New stop-loss (only for Stop-loss revised)', 'In rupees, like 1450.')}
            {price('price', 'Price (for Target hit, Stop-loss hit or Closed)', 'In rupees, like 1610.50.')}
          </>
        ) : null}
        <ResearchDisclosureFields field={field} />
        <div className="flex flex-wrap items-center gap-4">
          <StatusButton status={pending ? 'pending' : 'idle'}>Save draft</StatusButton>
        </div>
      </Form>
    </section>
  )
}
