// Everything the bench starts registers how to stop it here, so an error or Ctrl-C never leaves a
// server, database or Chromium running.
type Stopper = () => Promise<void> | void

const stoppers = new Set<Stopper>()

/** Registers a stopper; call the returned function once the thing has been stopped normally. */
export function onCleanup(stop: Stopper): () => void {
  stoppers.add(stop)
  return () => stoppers.delete(stop)
}

/** Stops everything still registered, newest first; safe to call more than once. */
export async function cleanup(): Promise<void> {
  for (const stop of [...stoppers].reverse()) {
    stoppers.delete(stop)
    try {
      await stop()
    } catch (error) {
      console.error('cleanup:', error instanceof Error ? error.message : error)
    }
  }
}
