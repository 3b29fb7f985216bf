import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer } from 'node:net'

/** `count` distinct ports free now (all held open together, so none is handed out twice). */
export async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => createServer())
  await Promise.all(probes.map((probe) => new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))))
  const ports = probes.map((probe) => (probe.address() as { port: number }).port)
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))))
  return ports
}

// Runs in a child process because Playwright's config is loaded synchronously. Probing without a
// host binds every interface, so a port any server listens on, IPv4 or IPv6, counts as taken.
const FIRST_FREE_PAIR = `
const { createServer } = require('node:net')
const isFree = (port) => new Promise((resolve) => {
  const probe = createServer()
  probe.once('error', () => resolve(false))
  probe.listen(port, () => probe.close(() => resolve(true)))
})
;(async () => {
  for (let port = Number(process.argv[1]); port < Number(process.argv[2]); port += 2) {
    if ((await isFree(port)) && (await isFree(port + 1))) return process.stdout.write(String(port))
  }
  process.exit(1)
})()`

/**
 * The first port from `from` up that is free together with the next one (the two-instances spec
 * starts a second store on port + 1), so a second suite running beside another gets its own.
 */
export function firstFreePortPair(from: number, tries = 100): number {
  return Number(
    execFileSync(process.execPath, ['-e', FIRST_FREE_PAIR, String(from), String(from + 2 * tries)], {
      encoding: 'utf8',
    }),
  )
}

/**
 * Where a clone's end-to-end store looks for its port pair: 3100 plus an even offset below 1,000
 * taken from the clone's folder. Two suites started together in two clones would otherwise both
 * find 3100 free, since a store binds its port only once it is built.
 */
export function e2ePortSearchStart(folder: string): number {
  return 3100 + 2 * (createHash('sha256').update(folder).digest().readUInt16BE(0) % 500)
}
