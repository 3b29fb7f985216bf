import { execFileSync } from 'node:child_process'
import { createServer } from 'node:net'
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

/** `count` distinct ports free now (all held open together, so none is handed out twice). */
export async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => createServer())
  await Promise.all(probes.map((probe) => new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))))
  const ports = probes.map((probe) => (probe.address() as { port: number }).port)
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))))
  return ports
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
