import { siteTitle } from '~/domain/business-details'
import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { formatDays, MonthTable } from '~/components/complaint-board-tables'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { COMPLAINT_SOURCE_LABELS, COMPLAINT_SOURCES, monthLabel, type ComplaintSource } from '~/domain/complaint-board'
import {
  complaintMonthFormSchema,
  SOURCE_FIGURE_LABELS,
  sourcePreview,
  type SourceFigures,
} from '~/domain/complaint-board-form'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { complaintMonthForAdmin, saveComplaintMonth } from '~/server/complaints/board-publishing.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/complaint-board-month'

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => [
  { title: siteTitle(matches, `Complaint figures for ${loaderData?.month.label ?? 'a month'} | Admin`) },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const month = await complaintMonthForAdmin(params.month)
  if (!month) throw data('Not Found', { status: 404 })
  const searchParams = new URL(request.url).searchParams
  const saved = searchParams.get('saved')
  return {
    month,
    latestLabel: month.latestMonth !== month.month ? monthLabel(month.latestMonth) : null,
    published: searchParams.get('published') === '1',
    saved: saved === 'changed' || saved === 'unchanged' ? saved : null,
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const month = await complaintMonthForAdmin(params.month)
  if (!month) throw data('Not Found', { status: 404 })
  const submission = parseWithZod(await readForm(request), { schema: complaintMonthFormSchema(month.pendingAtStart) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const change = await saveComplaintMonth(admin.id, month.month, submission.value)
  if (!change.ok) {
    if (change.status === 404) throw data('Not Found', { status: 404 })
    return data({ result: submission.reply({ formErrors: [change.message] }) }, change.status)
  }
  return redirect(`/admin/complaint-board/${month.month}?saved=${change.changed ? 'changed' : 'unchanged'}`)
}

const formValues = (figures: SourceFigures) => ({
  received: String(figures.received),
  resolved: String(figures.resolved),
  pendingOverThreeMonths: String(figures.pendingOverThreeMonths),
  resolutionDaysTotal: String(figures.resolutionDaysTotal),
})

export default function AdminComplaintMonth({ loaderData, actionData }: Route.ComponentProps) {
  const { month, latestLabel, published, saved } = loaderData
  const pending = useIsPending()
  const schema = complaintMonthFormSchema(month.pendingAtStart)
  const [form, fields] = useForm({
    id: `complaint-month-${month.month}`,
    lastResult: actionData?.result as SubmissionResult<string[]> | undefined,
    defaultValue: {
      impersonationComplaints: String(month.impersonationComplaints),
      figures: Object.fromEntries(COMPLAINT_SOURCES.map((source) => [source, formValues(month.figures[source])])),
    },
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const sourceFields = fields.figures.getFieldset()
  const { key: impersonationKey, ...impersonationProps } = getInputProps(fields.impersonationComplaints, {
    type: 'text',
  })
  return (
    <>
      <h1 className="text-2xl font-semibold">Complaint figures for {month.label}</h1>
      <p className="mt-1">
        <Link to="/admin/complaint-board" className="underline">
          Back to the complaint board months
        </Link>
      </p>
      <div className="mt-4 space-y-3">
        {published ? (
          <FormMessage tone="success">
            {month.label} is on the board now, with no complaints. Enter its figures below.
          </FormMessage>
        ) : null}
        {saved === 'changed' ? (
          <FormMessage tone="success">
            Figures saved. The{' '}
            <Link to="/complaint-board" className="underline">
              Complaint Board
            </Link>{' '}
            shows them now.
          </FormMessage>
        ) : null}
        {saved === 'unchanged' ? (
          <FormMessage tone="info">Nothing had changed, so nothing was saved.</FormMessage>
        ) : null}
      </div>
      <p className="mt-3 max-w-3xl text-sm">
        {month.publication.enteredByHand ? 'Figures entered by hand' : 'Computed from the complaint register'},
        published on {month.publication.publishedOn}
        {month.publication.late ? ' (late: after the 7th of the next month)' : ''}.
        {month.editable
          ? ''
          : month.publication.enteredByHand
            ? ' The complaint register covers this month, so its figures can no longer be entered by hand.'
            : ' Published figures are frozen: later changes to the register do not alter them.'}
      </p>
      {month.editable ? (
        <>
          <p className="mt-3 max-w-3xl text-sm text-gray-700 dark:text-gray-300">
            Enter what happened in {month.label} for each source. What was pending at the start comes from the months
            before; what is pending at the end and the average resolution time are worked out from these figures.
            {latestLabel
              ? ` The public board reports ${latestLabel}: this month counts in its trends and in what later months start with.`
              : ' This is the month the public board reports.'}
          </p>

          <Form method="post" {...getFormProps(form)} className="mt-4 max-w-3xl space-y-4">
            {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
            {COMPLAINT_SOURCES.map((source) => (
              <SourceFigureFields
                key={source}
                source={source}
                pendingAtStart={month.pendingAtStart[source]}
                field={sourceFields[source]}
              />
            ))}
            <Field
              key={impersonationKey}
              label="Complaints received this month because someone impersonated us"
              hint="Shown on a line of its own under the month's table."
              errors={fields.impersonationComplaints.errors}
              inputProps={{ ...impersonationProps, inputMode: 'numeric', autoComplete: 'off' }}
            />
            <StatusButton status={pending ? 'pending' : saved === 'changed' ? 'success' : 'idle'}>
              Save figures
            </StatusButton>
          </Form>
        </>
      ) : null}

      <section aria-labelledby="saved-board-heading" className="mt-10">
        <h2 id="saved-board-heading" className="text-xl font-semibold">
          {month.editable ? 'The saved figures as the board shows them' : 'The published figures'}
        </h2>
        <MonthTable board={month.board} />
      </section>
    </>
  )
}

const wholeNumber = (value: unknown) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : null)

/** One "Received from" row of the board: what is entered, what it started with, and what the board will derive. */
function SourceFigureFields({
  source,
  pendingAtStart,
  field,
}: {
  source: ComplaintSource
  pendingAtStart: number
  field: FieldMetadata<Record<keyof SourceFigures, unknown>>
}) {
  const inputs = field.getFieldset()
  const hints: Record<keyof SourceFigures, string> = {
    received: 'New complaints this month.',
    resolved: 'Including complaints of earlier months.',
    pendingOverThreeMonths: 'Of those pending at the end of the month.',
    resolutionDaysTotal: 'The days each complaint resolved this month took, added up.',
  }
  const received = wholeNumber(inputs.received.value)
  const resolved = wholeNumber(inputs.resolved.value)
  const resolutionDaysTotal = wholeNumber(inputs.resolutionDaysTotal.value)
  const preview =
    received !== null && resolved !== null && resolutionDaysTotal !== null
      ? sourcePreview(pendingAtStart, { received, resolved, resolutionDaysTotal })
      : null
  return (
    <fieldset className="rounded-lg border border-gray-200 p-4 dark:border-gray-700">
      <legend className="px-1 text-lg font-semibold">{COMPLAINT_SOURCE_LABELS[source]}</legend>
      <p className="text-sm">
        Pending at the end of last month: <strong>{pendingAtStart}</strong>
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {(['received', 'resolved', 'pendingOverThreeMonths', 'resolutionDaysTotal'] as const).map((name) => {
          const { key, ...inputProps } = getInputProps(inputs[name], { type: 'text' })
          return (
            <Field
              key={key ?? name}
              label={SOURCE_FIGURE_LABELS[name]}
              hint={hints[name]}
              errors={inputs[name].errors}
              inputProps={{ ...inputProps, inputMode: 'numeric', autoComplete: 'off' }}
            />
          )
        })}
      </div>
      <p className="mt-3 text-sm">
        {preview && preview.pendingAtEnd >= 0 ? (
          <>
            Total pending at the end of the month: <strong>{preview.pendingAtEnd}</strong>. Average resolution time:{' '}
            <strong>{formatDays(preview.averageResolutionDays)} days</strong>.
          </>
        ) : (
          'Total pending and the average resolution time show here once the figures add up.'
        )}
      </p>
    </fieldset>
  )
}
