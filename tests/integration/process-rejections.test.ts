import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'

function runStandIn(
  rejection:
    | 'database-ended'
    | 'database-ended-while-stopping'
    | 'database-refusing-while-stopping'
    | 'connection-reset-while-stopping'
    | 'bug',
) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/rejection-stand-in.ts'], {
    env: { ...process.env, STAND_IN_REJECTION: rejection },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  )
}

describe('an unhandled rejection in the store process', () => {
  it('from the database ending a connection mid-query is logged, and the store goes on', async () => {
    const { code, output } = await runStandIn('database-ended')
    expect(output).toContain('A query was cut off when the database ended its connection')
    expect(output).toContain('still running')
    expect(output).not.toContain('shutting down')
    expect(code).toBe(0)
  })

  it('from anything else shuts the store down with exit code 1', async () => {
    const { code, output } = await runStandIn('bug')
    expect(output).toContain('Uncaught error: shutting down')
    expect(output).toContain('closed')
    expect(output).not.toContain('still running')
    expect(code).toBe(1)
  })

  it('from a connection the stopping database ended, while the store shuts down, is logged and the shutdown ends cleanly', async () => {
    const { code, output } = await runStandIn('database-ended-while-stopping')
    expect(output).toContain('SIGTERM: shutting down')
    expect(output).toContain('A connection was ended by the database while the store stops')
    expect(output).toContain('closed')
    expect(output).not.toContain('Uncaught error')
    expect(code).toBe(0)
  })

  it('from a query the stopping database refused, while the store shuts down, is logged and the shutdown ends cleanly', async () => {
    const { code, output } = await runStandIn('database-refusing-while-stopping')
    expect(output).toContain('SIGTERM: shutting down')
    expect(output).toContain('the database system is shutting down')
    expect(output).toContain('closed')
    expect(output).not.toContain('Uncaught error')
    expect(code).toBe(0)
  })

  it('from a connection the stopping database reset, while the store shuts down, is logged and the shutdown ends cleanly', async () => {
    const { code, output } = await runStandIn('connection-reset-while-stopping')
    expect(output).toContain('A connection was ended by the database while the store stops: read ECONNRESET')
    expect(output).toContain('closed')
    expect(output).not.toContain('Uncaught error')
    expect(code).toBe(0)
  })
}, 30_000)
