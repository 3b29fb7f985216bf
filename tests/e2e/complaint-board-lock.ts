import { DEMO_COMPLAINT_BOARD_MONTHS } from '../../prisma/seed'
import { withE2eDatabase } from './database'

/*
 * The e2e server has one public complaint board. Specs that check the demo figures read it under a
 * shared lock; a spec that changes it holds the lock alone and puts the demo board back before
 * letting go, so no reader sees it half-way (docs/decisions/010-e2e-shared-complaint-board.md).
 * A session advisory lock: closing the connection releases it, even after a failed test.
 */
const COMPLAINT_BOARD_LOCK_KEY = 6_005_010

export function readingTheDemoComplaintBoard<T>(run: () => Promise<T>): Promise<T> {
  return withE2eDatabase(async (client) => {
    await client.query('SELECT pg_advisory_lock_shared($1)', [COMPLAINT_BOARD_LOCK_KEY])
    return run()
  })
}

export function changingTheComplaintBoard<T>(run: () => Promise<T>): Promise<T> {
  return withE2eDatabase(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [COMPLAINT_BOARD_LOCK_KEY])
    try {
      return await run()
    } finally {
      await client.query(`DELETE FROM complaint_board_months WHERE to_char(month, 'YYYY-MM') <> ALL($1::text[])`, [
        [...DEMO_COMPLAINT_BOARD_MONTHS],
      ])
      await client.query('UPDATE complaint_board_months SET impersonation_complaints = 0')
      await client.query(
        'UPDATE complaint_figures SET received = 0, resolved = 0, pending_over_three_months = 0, resolution_days_total = 0',
      )
    }
  })
}
