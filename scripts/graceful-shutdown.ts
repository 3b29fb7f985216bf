// Ctrl-C in a terminal running `npm start` signals the whole process group: npm forwards the SIGINT
// it got to us as well, so one key press arrives as two signals a few milliseconds apart. A
// shutdown helper that treats the second signal as "force quit" (close-with-grace did) then exits
// before the embedded PostgreSQL has stopped. Here signals within REPEAT_WINDOW_MS count as one;
// a later one, or the timeout, force-quits.

const REPEAT_WINDOW_MS = 1_000
const SHUTDOWN_TIMEOUT_MS = 10_000

/**
 * Runs `close` once on SIGINT/SIGTERM (exit 0 after it finishes) or after an uncaught error
 * (exit 1). A second Ctrl-C pressed later than REPEAT_WINDOW_MS, or a close taking longer than
 * SHUTDOWN_TIMEOUT_MS, exits at once with 1.
 */
export function onShutdown(close: () => Promise<void>): void {
  let firstSignalAt: number | undefined

  const shutDown = async (reason: string, exitCode: number) => {
    console.log(`${reason}: shutting down`)
    const timeout = setTimeout(() => {
      console.error(`Shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting`)
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS)
    timeout.unref()
    try {
      await close()
    } catch (error) {
      console.error('Shutdown failed:', error)
      exitCode = 1
    }
    process.exit(exitCode)
  }

  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now()
    if (firstSignalAt === undefined) {
      firstSignalAt = now
      void shutDown(signal, 0)
    } else if (now - firstSignalAt > REPEAT_WINDOW_MS) {
      console.error(`${signal} again: exiting without waiting for the shutdown to finish`)
      process.exit(1)
    }
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  const onCrash = (error: unknown) => {
    console.error(error)
    if (firstSignalAt !== undefined) process.exit(1)
    firstSignalAt = Date.now()
    void shutDown('Uncaught error', 1)
  }
  process.on('uncaughtException', onCrash)
  process.on('unhandledRejection', onCrash)
}
