import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { monthLabel, nextMonth } from '~/domain/complaint-board'
import {
  EARLIEST_COMPLAINT_BOARD_MONTH,
  lastEndedMonth,
  publishComplaintMonthSchema,
  suggestedMonthToPublish,
} from '~/domain/complaint-board-form'
import { requireAdmin } from '~/server/admin.server'
import { complaintMonthsForAdmin, publishComplaintMonth } from '~/server/admin-complaint-board.server'
import { readForm } from '~/server/forms.server'
import type { Route } from './+types/complaint-board'

export const meta: Route.MetaFunction = () => [{ title: 'Complaint board | Admin | Research Store' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const now = new Date()
  const months = await complaintMonthsForAdmin()
  const latestPublishable = lastEndedMonth(now)
  return {
    months,
    latestPublishable,
    suggestedMonth: suggestedMonthToPublish(months[0]?.month ?? null, now),
    // While the board is up to date: "December 2026 can be published from 1 January 2027".
    upToDateNote:
      months[0]?.month === latestPublishable
        ? `${monthLabel(nextMonth(latestPublishable))} can be published from 1 ${monthLabel(nextMonth(nextMonth(latestPublishable)))}.`
        : null,
  }
}

/** Publish a month: it joins the board with no complaints, and the admin goes on to its figures. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), {
    schema: publishComplaintMonthSchema(lastEndedMonth(new Date())),
  })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const { month } = submission.value
  const change = await publishComplaintMonth(admin.id, month)
  if (!change.ok) return data({ result: submission.reply({ fieldErrors: { month: [change.message] } }) }, change.status)
  return redirect(`/admin/complaint-board/${month}?published=1`)
}

const cellClass = 'border border-gray-300 px-3 py-2 text-right tabular-nums dark:border-gray-700'
const rowHeaderClass = 'border border-gray-300 px-3 py-2 text-left font-medium whitespace-nowrap dark:border-gray-700'

export default function AdminComplaintBoard({ loaderData, actionData }: Route.ComponentProps) {
  const { months, latestPublishable, suggestedMonth, upToDateNote } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Complaint board</h1>
      <p className="mt-2 max-w-3xl text-sm text-gray-700 dark:text-gray-300">
        The figures behind the public{' '}
        <Link to="/complaint-board" className="underline">
          Complaint Board
        </Link>
        , which reports the latest month on it (SEBI expects each month by the 7th of the next). Choose a month to enter
        what happened in it; what was pending at its start and end, and the averages, are worked out from the figures.
        Changes show on the public page at once.
      </p>

      <PublishMonthForm
        latestPublishable={latestPublishable}
        suggestedMonth={suggestedMonth}
        upToDateNote={upToDateNote}
        lastResult={actionData?.result}
      />

      <section aria-labelledby="months-heading" className="mt-8">
        <h2 id="months-heading" className="text-xl font-semibold">
          Months on the board
        </h2>
        {months.length === 0 ? (
          <p className="mt-3">No month is published yet.</p>
        ) : (
          <ScrollableTable label="Months on the board, newest first" minWidthClass="min-w-[32rem]">
            <ColumnHeaders
              columns={['Month', 'Received', 'Resolved', 'Pending at the end', 'Impersonation complaints']}
            />
            <tbody>
              {months.map((month) => (
                <tr key={month.month}>
                  <th scope="row" className={rowHeaderClass}>
                    {/* The first column, so the link is in view on a phone before the table scrolls. */}
                    <Link
                      to={`/admin/complaint-board/${month.month}`}
                      className="underline"
                      aria-label={`Edit figures for ${month.label}`}
                    >
                      {month.label}
                    </Link>
                  </th>
                  <td className={cellClass}>{month.received}</td>
                  <td className={cellClass}>{month.resolved}</td>
                  <td className={cellClass}>{month.pendingAtEnd}</td>
                  <td className={cellClass}>{month.impersonationComplaints}</td>
                </tr>
              ))}
            </tbody>
          </ScrollableTable>
        )}
      </section>
    </>
  )
}

function PublishMonthForm({
  latestPublishable,
  suggestedMonth,
  upToDateNote,
  lastResult,
}: {
  latestPublishable: string
  suggestedMonth: string | null
  upToDateNote: string | null
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const pending = useIsPending()
  const schema = publishComplaintMonthSchema(latestPublishable)
  const [form, fields] = useForm({
    id: 'publish-month',
    lastResult,
    defaultValue: { month: suggestedMonth ?? '' },
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const { key, ...monthInputProps } = getInputProps(fields.month, { type: 'month' })
  return (
    <section
      aria-labelledby="publish-heading"
      className="mt-6 max-w-md rounded-lg border border-gray-200 p-4 dark:border-gray-700"
    >
      <h2 id="publish-heading" className="text-xl font-semibold">
        Publish a month
      </h2>
      {upToDateNote ? <p className="mt-2 text-sm">The board is up to date. {upToDateNote}</p> : null}
      <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
        {form.errors ? <FormMessage tone="error">{form.errors.join(' ')}</FormMessage> : null}
        <Field
          key={key}
          label="Month"
          hint={`A month that has ended (YYYY-MM), from ${EARLIEST_COMPLAINT_BOARD_MONTH} on. It starts with no complaints.`}
          errors={fields.month.errors}
          inputProps={{ ...monthInputProps, min: EARLIEST_COMPLAINT_BOARD_MONTH, max: latestPublishable }}
        />
        <StatusButton status={pending ? 'pending' : 'idle'}>Publish month</StatusButton>
      </Form>
    </section>
  )
}
