import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { copyLines } from '~/server/copy-lines.server'

// The audit pack's roll and log come through copyLines (decision 064): the bytes PostgreSQL wrote, in order, in
// batches; a reader that stops early or stalls must not leave PostgreSQL copying or holding its snapshot.

const HOUR_MS = 3_600_000
const clients: pg.Client[] = []

async function connected(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  client.on('error', () => {})
  clients.push(client)
  await client.connect()
  return client
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => {})))
})

const backendIsGone = async (observer: pg.Client, pid: number) =>
  (await observer.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 0

/** `count` lines, each as the query writes it, with characters of 1 to 4 bytes and a line end of each kind. */
const LINES_SQL = (count: number) => `SELECT 'line ' || n || ' ₹ राम 😀 "q", \\ ' || repeat('x', n % 7) ||
  CASE WHEN n % 2 = 0 THEN E'\\r\\n' ELSE E'\\n' END FROM generate_series(1, ${count}) n ORDER BY n`

/** More lines (tens of megabytes) than the connection's buffers hold, so PostgreSQL is still writing them. */
const MANY_LINES_SQL = `SELECT repeat('x', 100) || E'\\n' FROM generate_series(1, 500000)`

const expectedLines = (count: number) =>
  Array.from(
    { length: count },
    (_, index) => `line ${index + 1} ₹ राम 😀 "q", \\ ${'x'.repeat((index + 1) % 7)}${(index + 1) % 2 ? '\n' : '\r\n'}`,
  ).join('')

describe('copyLines', () => {
  it('hands on the rows as the query wrote them, in order, in batches of about the size asked, counted', async () => {
    const client = await connected()
    for (const [count, batchBytes] of [
      [0, 1_024],
      [1, 1_024],
      [5_000, 4_096],
      [3, 8], // every line longer than a batch
    ] as const) {
      const batches = []
      for await (const batch of copyLines(client, LINES_SQL(count), { batchBytes, stalledAfterMs: HOUR_MS }))
        batches.push(batch)
      expect(Buffer.concat(batches.map((batch) => batch.bytes)).toString('utf8')).toBe(expectedLines(count))
      expect(batches.reduce((rows, batch) => rows + batch.rows, 0)).toBe(count)
      expect(batches.every((batch) => batch.rows > 0)).toBe(true)
      if (count === 5_000) expect(batches.length).toBeGreaterThan(20)
    }
    // The connection is ready for the next statement.
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
  })

  it("fails with the query's error", async () => {
    const client = await connected()
    const lines = copyLines(client, 'SELECT (1 / (n - 3))::text FROM generate_series(1, 5) n', {
      stalledAfterMs: HOUR_MS,
    })
    await expect(
      (async () => {
        for await (const batch of lines) void batch
      })(),
    ).rejects.toThrow('division by zero')
  })

  it('taken no further, closes the connection, so PostgreSQL stops copying', async () => {
    const client = await connected()
    const observer = await connected()
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
    const lines = copyLines(client, MANY_LINES_SQL, { batchBytes: 1_024, stalledAfterMs: HOUR_MS })
    expect((await lines.next()).done).toBe(false)
    await lines.return(undefined)
    await expect.poll(() => backendIsGone(observer, pid), { timeout: 15_000 }).toBe(true)
  })

  it('ends the COPY and its connection when the reader takes no batch for stalledAfterMs', async () => {
    const client = await connected()
    const observer = await connected()
    const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
    const lines = copyLines(client, MANY_LINES_SQL, { batchBytes: 1_024, stalledAfterMs: 200 })
    expect((await lines.next()).done).toBe(false)
    await expect.poll(() => backendIsGone(observer, pid), { timeout: 15_000 }).toBe(true)
    await expect(
      (async () => {
        for await (const batch of lines) void batch
      })(),
    ).rejects.toThrow('the reader took no lines for 200 ms')
  })
})
