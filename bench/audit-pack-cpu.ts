// The date-range audit pack's cost per delivery row, in CPU time rather than wall-clock time (decision 064):
//
//   DATABASE_URL=postgresql://…/<a database the at-scale-research bench has seeded> \
//     node --import tsx [--cpu-prof] bench/audit-pack-cpu.ts [passes]
//
// Builds the pack of everything in this process, reads it to the end and prints, a pass a line, the delivery
// rows, the pack's bytes, the wall-clock time, this process's CPU time and the CPU time of the PostgreSQL
// backends that served it (read from /proc every 20 ms, found by their application_name), each also per
// delivery row, with the load average. On a machine shared with other work the CPU times are the steadier
// figures: a row costs the same CPU however many other processes wait for the cores.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import pg from 'pg'

const APPLICATION_NAME = 'audit_pack_cpu'
const SAMPLE_MS = 20
const TICKS_PER_SECOND = 100

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('DATABASE_URL names a database the at-scale-research bench has seeded')
const url = new URL(databaseUrl)
url.searchParams.set('application_name', APPLICATION_NAME)
process.env.DATABASE_URL = url.toString()
const passes = Number(process.argv[2] ?? 3)
/** With PACK_NOW (an ISO time), every pass packs as of then and prints its SHA-256: two versions of the code compared. */
const fixedNow = process.env.PACK_NOW ? new Date(process.env.PACK_NOW) : undefined

const { prisma } = await import('../app/server/db.server')
const { researchAuditPack } = await import('../app/server/research/audit-pack.server')

const monitor = new pg.Client({ connectionString: databaseUrl })
await monitor.connect()

/** CPU seconds each backend named APPLICATION_NAME has used, as last seen. */
const backendSeconds = new Map<number, number>()
async function sampleBackends() {
  const { rows } = await monitor.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [APPLICATION_NAME],
  )
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      backendSeconds.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND)
    } catch {
      // Gone between the query and the read: its last sample stands.
    }
  }
}
const totalBackendSeconds = () => [...backendSeconds.values()].reduce((sum, seconds) => sum + seconds, 0)

const admin = await prisma.user.findFirstOrThrow({ where: { role: 'ADMIN' }, select: { id: true } })
const [{ deliveries }] = await prisma.$queryRaw<[{ deliveries: bigint }]>`
  SELECT count(*) AS deliveries FROM research_deliveries d JOIN research_items i ON i.id = d.item_id
  WHERE i.signature IS NOT NULL`
const rows = Number(deliveries)
const to = new Date().toISOString().slice(0, 10)

for (let pass = 1; pass <= passes; pass++) {
  await sampleBackends()
  const backendBefore = totalBackendSeconds()
  const load = loadavg()[0]!
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  let sampling = Promise.resolve()
  const sampler = setInterval(() => (sampling = sampling.then(sampleBackends)), SAMPLE_MS)
  const pack = await researchAuditPack(admin.id, { from: '2000-01-01', to }, { now: fixedNow })
  const hash = fixedNow ? createHash('sha256') : null
  let bytes = 0
  for await (const chunk of pack!.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength
    hash?.update(chunk)
  }
  clearInterval(sampler)
  await sampling
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  const processSeconds = (cpu.user + cpu.system) / 1e6
  const backend = totalBackendSeconds() - backendBefore
  const perRow = (cpuSeconds: number) => `${((cpuSeconds / rows) * 1e6).toFixed(1)} µs/row`
  console.log(
    `pass ${pass}: ${rows} delivery rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s ` +
      `(${Math.round(rows / seconds)} rows/s); process CPU ${processSeconds.toFixed(2)} s (${perRow(processSeconds)}; ` +
      `user ${(cpu.user / 1e6).toFixed(2)} s), PostgreSQL ${backend.toFixed(2)} s (${perRow(backend)}); ` +
      `load ${load.toFixed(1)}-${loadavg()[0]!.toFixed(1)}${hash ? `; SHA-256 ${hash.digest('hex')}` : ''}`,
  )
}
await monitor.end()
await prisma.$disconnect()
