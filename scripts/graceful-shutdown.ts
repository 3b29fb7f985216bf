// Ctrl-C in a terminal running `npm start` signals the whole process group: npm forwards the SIGINT
// it got to us as well, so one key press arrives as two signals a few milliseconds apart. A
// shutdown helper that treats the second signal as "force quit" (close-with-grace did) then exits
// before the embedded PostgreSQL has stopped. Here signals within REPEAT_WINDOW_MS count as one;
// a later one, or the timeout, force-quits.

import type { Server } from 'node:http'
import { getErrorMessage, isDatabaseGone, isDatabaseShuttingDown } from '../app/domain/error-message'
import { loggerFor } from '../app/server/operations/logger.server'

const log = loggerFor('shutdown')

const REPEAT_WINDOW_MS = 1_000
export const SHUTDOWN_GRACE_MS = 10_000
/** After the grace period: how long stopping the database may take before we exit regardless. */
const FORCED_CLOSE_TIMEOUT_MS = 10_000

/** While the server closes: how often connections that have fallen idle are closed. */
const IDLE_CONNECTION_SWEEP_MS = 100

/**
 * `server.close()` refuses new connections but, in Node, goes on serving new requests on open
 * keep-alive connections (answering "keep-alive") and closes an idle one only after
 * keepAliveTimeout: a browser or proxy reusing its connection holds the shutdown until the grace
 * period ends. From now on every answer says `Connection: close`, and connections are closed as
 * soon as their last request is answered. Resolves once the last connection has closed.
 */
export function stopServing(server: Server): Promise<void> {
  server.prependListener('request', (_request, response) => response.setHeader('Connection', 'close'))
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_CONNECTION_SWEEP_MS)
  return new Promise((resolve) =>
    server.close(() => {
      clearInterval(sweep)
      resolve()
    }),
  )
}

export type ShutdownSteps = {
  /** The orderly shutdown: stop taking requests, let the open ones finish, close the app, stop the database. */
  close: () => Promise<void>
  /**
   * When the orderly shutdown outlasts the grace period (a request that never ends) or a later
   * signal insists: cut the remaining connections and still stop the database, so an embedded
   * PostgreSQL is not left running without its owner.
   */
  forceClose: () => Promise<void>
  graceMs?: number
}

/**
 * Runs `close` once on SIGINT/SIGTERM (exit 0 after it finishes) or after an uncaught error
 * (exit 1); a promise rejected only because the database ended its connection is logged instead,
 * and so is a connection the database ends while the store shuts down. A second Ctrl-C pressed later
 * than REPEAT_WINDOW_MS, or a close taking longer than the grace period, runs `forceClose` and exits
 * with 1.
 */
export function onShutdown({ close, forceClose, graceMs = SHUTDOWN_GRACE_MS }: ShutdownSteps): void {
  let firstSignalAt: number | undefined
  let forcing = false

  const forceExit = async (reason: string) => {
    if (forcing) return
    forcing = true
    log.error(`${reason}; closing the open connections and stopping the database`)
    const deadline = setTimeout(() => {
      log.error(`The database did not stop within ${FORCED_CLOSE_TIMEOUT_MS / 1000} s; exiting`)
      process.exit(1)
    }, FORCED_CLOSE_TIMEOUT_MS)
    deadline.unref()
    try {
      await forceClose()
    } catch (error) {
      log.error({ err: error }, 'Forced shutdown failed')
    }
    process.exit(1)
  }

  const shutDown = async (reason: string, exitCode: number) => {
    log.info(`${reason}: shutting down`)
    const grace = setTimeout(() => void forceExit(`Shutdown took longer than ${graceMs / 1000} s`), graceMs)
    grace.unref()
    try {
      await close()
    } catch (error) {
      log.error({ err: error }, 'Shutdown failed')
      exitCode = 1
    }
    if (!forcing) process.exit(exitCode)
  }

  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now()
    if (firstSignalAt === undefined) {
      firstSignalAt = now
      void shutDown(signal, 0)
    } else if (now - firstSignalAt > REPEAT_WINDOW_MS) {
      void forceExit(`${signal} again: not waiting for the open requests`)
    }
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  const onCrash = (error: unknown) => {
    // pg's Pool.end() resolves once its clients are told to end, before their sockets close; the
    // database we stop next may end such a connection first, and that client, no longer the pool's,
    // throws from an 'error' event nobody listens to; and Ctrl-C stops the embedded database with us,
    // so a query under way may find its connection reset or refused. The shutdown is what ended it.
    if (firstSignalAt !== undefined && !forcing && isDatabaseGone(error))
      return void log.warn(`A connection was ended by the database while the store stops: ${getErrorMessage(error)}`)
    // An Error's stack says where; anything else thrown is described rather than printed as "undefined".
    log.fatal(
      { err: error instanceof Error ? error : new Error(getErrorMessage(error)) },
      `Uncaught error: ${getErrorMessage(error)}`,
    )
    if (firstSignalAt !== undefined) return void forceExit('Uncaught error while shutting down')
    firstSignalAt = Date.now()
    void shutDown('Uncaught error', 1)
  }
  process.on('uncaughtException', onCrash)
  process.on('unhandledRejection', (reason: unknown) => {
    // pg-boss 10 does not await marking a finished job complete; when PostgreSQL restarts at that
    // moment the rejection lands here. The job runs again after it expires; the store goes on.
    if (isDatabaseShuttingDown(reason))
      return void log.warn(`A query was cut off when the database ended its connection: ${getErrorMessage(reason)}`)
    onCrash(reason)
  })
}
