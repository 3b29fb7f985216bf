import { execFileSync } from 'node:child_process'
import { afterEach } from 'vitest'

/**
 * What a test started outside its process (servers, folders), undone after each test in reverse
 * order, also when the test failed half-way. Returns the function that registers one.
 */
export function cleanUpAfterEach(): (cleanup: () => Promise<void> | void) => void {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return (cleanup) => void cleanups.push(cleanup)
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, is not). */
export function isRunning(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .startsWith('Z')
  } catch {
    return false
  }
}
