// A store killed outright (SIGKILL, a closed terminal, a crash past its shutdown) leaves its
// embedded PostgreSQL running, or at least its postmaster.pid behind. PostgreSQL then refuses the
// data folder to the next start, and the port is taken. Before starting, such a leftover is stopped.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { loggerFor } from '../../app/server/operations/logger.server'

const databaseLog = loggerFor('database')

/** How long a leftover server may take to finish a fast shutdown (it ends every session at once). */
export const STALE_POSTMASTER_STOP_TIMEOUT_MS = 15_000
const POLL_INTERVAL_MS = 50

type ProcessInfo = { state: string; command: string }

/** `ps` works on Linux and macOS alike; undefined when the process does not exist. */
function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const line = execFileSync('ps', ['-o', 'stat=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim()
    const [, state = '', command = ''] = /^(\S+)\s+(.*)$/.exec(line) ?? []
    return line ? { state, command } : undefined
  } catch {
    return undefined
  }
}

/** A zombie is dead: its parent (our killed process) is gone and nobody may reap it. */
function isRunning(pid: number): boolean {
  const info = processInfo(pid)
  return info !== undefined && !info.state.startsWith('Z')
}

/**
 * Stops a PostgreSQL still running on `databaseDir` from an earlier run, or removes its lock file
 * when its process id now belongs to another program. A lock file whose process is gone is left
 * to PostgreSQL, which removes it itself.
 */
export async function stopStalePostmaster(
  databaseDir: string,
  log: (line: string) => void = (line) => databaseLog.info(line),
): Promise<void> {
  const lockFile = path.join(databaseDir, 'postmaster.pid')
  if (!existsSync(lockFile)) return
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0) return
  const info = processInfo(pid)
  if (!info || info.state.startsWith('Z')) return
  if (!/postgres/.test(info.command) || !info.command.includes(databaseDir)) {
    log(`Removing the stale ${lockFile}: its process ${pid} is now another program`)
    rmSync(lockFile, { force: true })
    return
  }
  log(`Stopping the embedded PostgreSQL left running by an earlier run (process ${pid})`)
  // SIGINT is PostgreSQL's fast shutdown: sessions are ended, the data is written out cleanly.
  process.kill(pid, 'SIGINT')
  const deadline = Date.now() + STALE_POSTMASTER_STOP_TIMEOUT_MS
  while (isRunning(pid)) {
    if (Date.now() > deadline) {
      throw new Error(
        `The embedded PostgreSQL left running by an earlier run (process ${pid}) did not stop within ${STALE_POSTMASTER_STOP_TIMEOUT_MS / 1000} s; stop it and start again`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
  }
}
