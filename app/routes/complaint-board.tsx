import { siteTitle } from '~/domain/business-details'
import { Link } from 'react-router'
import { MonthTable, TrendTable } from '~/components/complaint-board-tables'
import { getComplaintBoard } from '~/server/complaints/board-history.server'
import type { Route } from './+types/complaint-board'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Complaint Board') },
  {
    name: 'description',
    content: 'Complaints received, resolved and pending, in the format SEBI requires of research analysts.',
  },
]

export async function loader() {
  return { board: await getComplaintBoard() }
}

export default function ComplaintBoardPage({ loaderData: { board } }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-2xl font-semibold">Complaint Board</h1>
      <p className="mt-2 max-w-3xl">
        Every month we publish the complaints we received, resolved and still have pending, including those received
        through SEBI&apos;s SCORES, in the format SEBI requires of research analysts. How to complain is explained on
        the{' '}
        <Link to="/grievance-redressal" className="text-green-700 underline dark:text-green-400">
          Grievance Redressal
        </Link>{' '}
        page.
      </p>
      {board ? (
        <>
          <p className="mt-4 max-w-3xl">
            This board reports the month ending {board.lastDayOfMonth}
            {board.publication.publishedOn ? `, published on ${board.publication.publishedOn}` : ''}
            {board.publication.late ? (
              <>
                {' '}
                <strong>(published late: SEBI asks for it by the 7th of the following month)</strong>
              </>
            ) : null}
            .
            {board.publication.enteredByHand ? ' Its figures were entered by hand, before our complaint register.' : ''}
          </p>
          <MonthTable board={board} />
          <TrendTable
            id="monthly-trend"
            title={`Trend of monthly disposal of complaints (financial year ${board.monthlyTrend.financialYear})`}
            periodColumn="Month"
            carriedForwardColumn="Carried forward from previous month"
            rows={board.monthlyTrend.rows}
            total={board.monthlyTrend.total}
            footnotes={[
              'Inclusive of complaints of previous months resolved in the current month.',
              'Inclusive of complaints pending as on the last day of the month.',
            ]}
          />
          <TrendTable
            id="annual-trend"
            title="Trend of annual disposal of complaints"
            periodColumn="Year"
            carriedForwardColumn="Carried forward from previous year"
            rows={board.annualTrend.rows}
            total={board.annualTrend.total}
            footnotes={[
              'Inclusive of complaints of previous years resolved in the current year.',
              'Inclusive of complaints pending as on the last day of the year.',
            ]}
          />
        </>
      ) : (
        <p className="mt-6">No monthly figures have been published yet.</p>
      )}
    </>
  )
}
