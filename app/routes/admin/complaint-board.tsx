import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { MonthTable } from '~/components/complaint-board-tables'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { isMonthKey, monthLabel, nextMonth } from '~/domain/complaint-board'
import { lastEndedMonth, publishComplaintMonthSchema } from '~/domain/complaint-board-form'
import { requireAdmin } from '~/server/auth/admin-role.server'
import {
  complaintMonthsForAdmin,
  complaintMonthToPublish,
  publishComplaintMonth,
  type ComplaintMonthToPublish,
} from '~/server/complaints/board-publishing.server'
import { readComplaintHistory } from '~/server/complaints/board-history.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/complaint-board'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Complaint board | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const lastEnded = lastEndedMonth(new Date())
  const url = new URL(request.url)
  const publishedParam = url.searchParams.get('published')
  // The board's history once, for both the months list and the preview of the month to publish.
  const history = await readComplaintHistory()
  return {
    months: await complaintMonthsForAdmin(history),
    toPublish: await complaintMonthToPublish(lastEnded, history),
    // While the board is up to date: "December 2026 can be published from 1 January 2027".
    upToDateNote: `${monthLabel(nextMonth(lastEnded))} can be published from 1 ${monthLabel(nextMonth(nextMonth(lastEnded)))}.`,
    publishedLabel: publishedParam && isMonthKey(publishedParam) ? monthLabel(publishedParam) : null,
  }
}

/** Publish the next month: from the register (frozen), or by hand for a month before the register. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), { schema: publishComplaintMonthSchema })
  if (submission.status !== 'success') {
    return data(
      {
        message:
          Object.values(submission.error ?? {})
            .flat()
            .join(' ') || 'Choose the month to publish.',
      },
      400,
    )
  }
  const { month, path } = submission.value
  const change = await publishComplaintMonth(admin.id, month, { path, lastEnded: lastEndedMonth(new Date()) })
  if (!change.ok) return data({ message: change.message }, change.status)
  return redirect(
    path === 'hand' ? `/admin/complaint-board/${month}?published=1` : `/admin/complaint-board?published=${month}`,
  )
}

const cellClass = 'border border-gray-300 px-3 py-2 text-right tabular-nums dark:border-gray-700'
const textCellClass = 'border border-gray-300 px-3 py-2 text-left whitespace-nowrap dark:border-gray-700'
const rowHeaderClass = 'border border-gray-300 px-3 py-2 text-left font-medium whitespace-nowrap dark:border-gray-700'

export default function AdminComplaintBoard({ loaderData, actionData }: Route.ComponentProps) {
  const { months, toPublish, upToDateNote, publishedLabel } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Complaint board</h1>
      <p className="mt-2 max-w-3xl text-sm text-gray-700 dark:text-gray-300">
        The figures behind the public{' '}
        <Link to="/complaint-board" className="underline">
          Complaint Board
        </Link>
        , which reports the latest month on it (SEBI expects each month by the 7th of the next). Months are published in
        order, none skipped. A month the complaint register covers is computed from it: review the figures, then publish
        them; they are frozen from then on. Months before the register were entered by hand and can still be corrected.
      </p>

      {publishedLabel ? (
        <div className="mt-4">
          <FormMessage tone="success">
            {publishedLabel} is published from the register. The{' '}
            <Link to="/complaint-board" className="underline">
              Complaint Board
            </Link>{' '}
            reports it now.
          </FormMessage>
        </div>
      ) : null}
      <PublishNextMonth toPublish={toPublish} upToDateNote={upToDateNote} message={actionData?.message} />

      <section aria-labelledby="months-heading" className="mt-8">
        <h2 id="months-heading" className="text-xl font-semibold">
          Months on the board
        </h2>
        {months.length === 0 ? (
          <p className="mt-3">No month is published yet.</p>
        ) : (
          <ScrollableTable label="Months on the board, newest first" minWidthClass="min-w-[32rem]">
            <ColumnHeaders
              columns={[
                'Month',
                'Figures',
                'Published',
                'Received',
                'Resolved',
                'Pending at the end',
                'Impersonation complaints',
              ]}
            />
            <tbody>
              {months.map((month) => (
                <tr key={month.month}>
                  <th scope="row" className={rowHeaderClass}>
                    {/* The first column, so the link is in view on a phone before the table scrolls. */}
                    <Link
                      to={`/admin/complaint-board/${month.month}`}
                      className="underline"
                      aria-label={`${month.publication.enteredByHand ? 'Edit' : 'See'} figures for ${month.label}`}
                    >
                      {month.label}
                    </Link>
                  </th>
                  <td className={textCellClass}>
                    {month.publication.enteredByHand ? 'Entered by hand' : 'From the register'}
                  </td>
                  <td className={textCellClass}>
                    {month.publication.publishedOn}
                    {month.publication.late ? ' (late)' : ''}
                  </td>
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

function PublishNextMonth({
  toPublish,
  upToDateNote,
  message,
}: {
  toPublish: ComplaintMonthToPublish | null
  upToDateNote: string
  message: string | undefined
}) {
  const pending = useIsPending()
  return (
    <section
      aria-labelledby="publish-heading"
      className="mt-6 rounded-lg border border-gray-200 p-4 dark:border-gray-700"
    >
      <h2 id="publish-heading" className="text-xl font-semibold">
        {toPublish ? `Publish ${toPublish.label}` : 'Publish a month'}
      </h2>
      {message ? (
        <div className="mt-3">
          <FormMessage tone="error">{message}</FormMessage>
        </div>
      ) : null}
      {!toPublish ? <p className="mt-2 text-sm">The board is up to date. {upToDateNote}</p> : null}
      {toPublish?.preview ? (
        <>
          <p className="mt-2 max-w-3xl text-sm">
            The figures below are computed from the complaint register as it stands now. Publishing freezes them: later
            changes to the register do not alter a published month. SEBI expects them by the 7th.
          </p>
          <MonthTable board={toPublish.preview} />
          <Form method="post" className="mt-3">
            <input type="hidden" name="month" value={toPublish.month} />
            <input type="hidden" name="path" value="register" />
            <StatusButton status={pending ? 'pending' : 'idle'}>
              Publish {toPublish.label} from the register
            </StatusButton>
          </Form>
        </>
      ) : null}
      {toPublish?.paths.includes('hand') ? (
        <Form method="post" className="mt-4">
          <p className="max-w-3xl text-sm">
            {toPublish.paths.includes('register')
              ? 'Or, for a month before the complaint register was kept, publish it with no complaints and enter its figures by hand.'
              : `${toPublish.label} is before the complaint register: publish it with no complaints and enter its figures by hand.`}
          </p>
          <input type="hidden" name="month" value={toPublish.month} />
          <input type="hidden" name="path" value="hand" />
          <StatusButton status={pending ? 'pending' : 'idle'} className="mt-2">
            Publish {toPublish.label} by hand
          </StatusButton>
        </Form>
      ) : null}
    </section>
  )
}
