import { financialYearLabel, financialYearStart, monthLabel, previousMonth } from '../../app/domain/complaint-board'
import { lastEndedMonth } from '../../app/domain/complaint-board-form'
import { withE2eDatabase } from './database'

/*
 * The e2e server has one public complaint board. Specs that check the demo figures read it under a
 * shared lock; a spec that changes it holds the lock alone and puts the demo board back before
 * letting go, so no reader sees it half-way (docs/decisions/010-e2e-shared-complaint-board.md).
 * A session advisory lock: closing the connection releases it, even after a failed test.
 */
const COMPLAINT_BOARD_LOCK_KEY = 6_005_010

/** Complaints a board-changing test adds to the register carry a source reference with this prefix; they go when it ends. */
export const BOARD_TEST_COMPLAINT_PREFIX = 'E2E-BOARD-'

/** A month as the board names it: "2026-10", "October 2026", "31 October 2026", "2026-27". */
export function boardMonth(month: string) {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return {
    key: month,
    label: monthLabel(month),
    lastDay: `${new Date(Date.UTC(year, number, 0)).getUTCDate()} ${monthLabel(month)}`,
    financialYear: financialYearLabel(financialYearStart(month)),
  }
}

/** The month the demo board reports: the last one that ended (prisma/seed.ts), and the one before it. */
export const demoReportedMonth = () => boardMonth(lastEndedMonth(new Date()))
export const monthBeforeDemoReported = () => boardMonth(previousMonth(lastEndedMonth(new Date())))

export function readingTheDemoComplaintBoard<T>(run: () => Promise<T>): Promise<T> {
  return withE2eDatabase(async (client) => {
    await client.query('SELECT pg_advisory_lock_shared($1)', [COMPLAINT_BOARD_LOCK_KEY])
    return run()
  })
}

export function changingTheComplaintBoard<T>(run: () => Promise<T>): Promise<T> {
  return withE2eDatabase(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [COMPLAINT_BOARD_LOCK_KEY])
    // The demo board as the seed left it (its months depend on the day the server started): put back as it was.
    // As JSON text, so dates and times come back exactly as they went.
    const { rows } = await client.query(
      `SELECT (SELECT coalesce(json_agg(m), '[]')::text FROM complaint_board_months m) AS months,
              (SELECT coalesce(json_agg(f), '[]')::text FROM complaint_figures f) AS figures`,
    )
    const { months, figures } = rows[0] as { months: string; figures: string }
    try {
      return await run()
    } finally {
      await client.query('BEGIN')
      await client.query('DELETE FROM complaints WHERE source_reference LIKE $1', [`${BOARD_TEST_COMPLAINT_PREFIX}%`])
      await client.query('DELETE FROM complaint_board_months')
      await client.query(
        'INSERT INTO complaint_board_months SELECT * FROM json_populate_recordset(NULL::complaint_board_months, $1)',
        [months],
      )
      await client.query(
        'INSERT INTO complaint_figures SELECT * FROM json_populate_recordset(NULL::complaint_figures, $1)',
        [figures],
      )
      await client.query('COMMIT')
    }
  })
}
