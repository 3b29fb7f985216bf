import { expireManualPayments } from './manual-claims.server'
import { reconcileOpenOrders } from './reconciliation.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('jobs')

/** The settle-payments job; one instance runs it at a time (pg-boss hands each scheduled job to one worker). */
export async function settlePayments(now = new Date()): Promise<void> {
  const report = await reconcileOpenOrders(now)
  const expired = await expireManualPayments(now)
  if (report.paid || report.abandoned || report.errors || expired) {
    log.info(
      `Settle-payments: ${report.checked} open orders checked, ${report.paid} paid, ${report.abandoned} given up, ${report.errors} errors; ${expired} manual claims expired`,
    )
  }
}
