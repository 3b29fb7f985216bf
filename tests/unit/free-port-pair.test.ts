import { createServer, type Server } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { e2ePortSearchStart, firstFreePortPair, freePorts } from '../support/ports'

const listening: Server[] = []
afterEach(async () => {
  await Promise.all(listening.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function listenOn(port: number, host?: string): Promise<void> {
  const server = createServer()
  listening.push(server)
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
}

// A second `npm test` beside a first must not start its store on the first one's port.
test('a port pair another server holds either port of is passed over', async () => {
  const [from] = (await freePorts(1)) as [number]
  const chosen = firstFreePortPair(from, 50)
  await listenOn(chosen + 1, '127.0.0.1')
  const next = firstFreePortPair(chosen, 50)
  expect(next).toBeGreaterThanOrEqual(chosen + 2)
  await listenOn(next)
  expect(firstFreePortPair(chosen, 50)).toBeGreaterThanOrEqual(next + 2)
})

test('a free pair is taken where the search starts', async () => {
  const [from] = (await freePorts(1)) as [number]
  const chosen = firstFreePortPair(from, 50)
  expect(firstFreePortPair(chosen, 50)).toBe(chosen)
})

test('two clones start their search for a port pair at different even ports', () => {
  const starts = ['/work/one-clone', '/work/another-clone'].map(e2ePortSearchStart)
  expect(starts[0]).not.toBe(starts[1])
  for (const start of starts) {
    expect(start % 2).toBe(0)
    expect(start).toBeGreaterThanOrEqual(3100)
    expect(start).toBeLessThan(4100)
  }
  expect(e2ePortSearchStart('/work/one-clone')).toBe(starts[0])
})
