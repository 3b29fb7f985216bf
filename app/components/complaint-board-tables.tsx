import { ColumnHeaders, ScrollableTable } from './data-table'
import type { ComplaintBoard, MonthTableCounts, TrendCounts, TrendRow } from '~/domain/complaint-board'

const cellClass = 'border border-gray-300 px-3 py-2 text-right tabular-nums dark:border-gray-700'
const labelCellClass = 'border border-gray-300 px-3 py-2 text-left font-normal dark:border-gray-700'
const totalRowClass = 'bg-gray-50 font-semibold dark:bg-gray-900'
const footnoteClass = 'mt-2 text-sm text-gray-700 dark:text-gray-300'

export const formatDays = (days: number) => days.toLocaleString('en-IN', { maximumFractionDigits: 1 })

/** SEBI's Annexure B, Table 1: "Data for the month ending". */
export function MonthTable({ board }: { board: ComplaintBoard }) {
  const title = `Data for the month ending ${board.lastDayOfMonth}`
  return (
    <section>
      <h2 id="month-table" className="mt-8 text-xl font-semibold">
        {title}
      </h2>
      <ScrollableTable label={title}>
        <ColumnHeaders
          columns={[
            'Sr. No.',
            'Received from',
            'Pending at the end of last month',
            'Received',
            'Resolved*',
            'Total Pending#',
            'Pending complaints > 3 months',
            'Average Resolution time^ (in days)',
          ]}
        />
        <tbody>
          {board.monthTable.rows.map((row) => (
            <tr key={row.serial}>
              <td className={cellClass}>{row.serial}</td>
              <th scope="row" className={labelCellClass}>
                {row.receivedFrom}
              </th>
              <MonthCounts counts={row} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className={totalRowClass}>
            <td className={cellClass} />
            <th scope="row" className={`${labelCellClass} font-semibold`}>
              Grand Total
            </th>
            <MonthCounts counts={board.monthTable.total} />
          </tr>
        </tfoot>
      </ScrollableTable>
      <p className="mt-3">
        Number of complaints received during the month against the research analyst due to impersonation by some other
        entity: <strong>{board.impersonationComplaints}</strong>
      </p>
      <p className={footnoteClass}>
        Complaints received because of impersonation by some other entity may be left out of the table above; they are
        closed after following the process specified by SEBI and the Research Analyst Administration and Supervisory
        Body (RAASB).
      </p>
      <ul className={footnoteClass}>
        <li>* Inclusive of complaints of previous months resolved in the current month.</li>
        <li># Inclusive of complaints pending as on the last day of the month.</li>
        <li>
          ^ Average Resolution time is the sum total of time taken to resolve each complaint, in days, in the current
          month divided by the total number of complaints resolved in the current month.
        </li>
      </ul>
    </section>
  )
}

function MonthCounts({ counts }: { counts: MonthTableCounts }) {
  return (
    <>
      <td className={cellClass}>{counts.pendingAtEndOfLastMonth}</td>
      <td className={cellClass}>{counts.received}</td>
      <td className={cellClass}>{counts.resolved}</td>
      <td className={cellClass}>{counts.totalPending}</td>
      <td className={cellClass}>{counts.pendingOverThreeMonths}</td>
      <td className={cellClass}>{formatDays(counts.averageResolutionDays)}</td>
    </>
  )
}

/** SEBI's Annexure B, Tables 2 and 3: the monthly and the annual trend. */
export function TrendTable({
  id,
  title,
  periodColumn,
  carriedForwardColumn,
  rows,
  total,
  footnotes,
}: {
  id: string
  title: string
  periodColumn: 'Month' | 'Year'
  carriedForwardColumn: string
  rows: TrendRow[]
  total: TrendCounts
  footnotes: [resolved: string, pending: string]
}) {
  return (
    <section>
      <h2 id={id} className="mt-10 text-xl font-semibold">
        {title}
      </h2>
      <ScrollableTable label={title}>
        <ColumnHeaders columns={['Sr. No.', periodColumn, carriedForwardColumn, 'Received', 'Resolved*', 'Pending#']} />
        <tbody>
          {rows.map((row) => (
            <tr key={row.serial}>
              <td className={cellClass}>{row.serial}</td>
              <th scope="row" className={labelCellClass}>
                {row.period}
              </th>
              <TrendCells counts={row} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className={totalRowClass}>
            <td className={cellClass} />
            <th scope="row" className={`${labelCellClass} font-semibold`}>
              Grand Total
            </th>
            <TrendCells counts={total} />
          </tr>
        </tfoot>
      </ScrollableTable>
      <ul className={footnoteClass}>
        <li>* {footnotes[0]}</li>
        <li># {footnotes[1]}</li>
      </ul>
    </section>
  )
}

function TrendCells({ counts }: { counts: TrendCounts }) {
  return (
    <>
      <td className={cellClass}>{counts.carriedForward}</td>
      <td className={cellClass}>{counts.received}</td>
      <td className={cellClass}>{counts.resolved}</td>
      <td className={cellClass}>{counts.pending}</td>
    </>
  )
}
