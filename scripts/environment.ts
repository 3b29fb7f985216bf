// The environment as every script sees it. A wrong variable stops the script with one line naming
// it (an EnvError), not a stack trace.
import type { Env } from '../app/server/env.server'
import { isDemoOpenToNetwork, isLoopbackHost, listenHost } from '../app/server/http/listen-host.server'
import { loggerFor } from '../app/server/operations/logger.server'

const log = loggerFor('start')

/** `businessDetails`: also check the business details now rather than on the first page. */
export async function loadEnvironment({ businessDetails = false } = {}): Promise<Env> {
  try {
    const { env } = await import('../app/server/env.server')
    if (businessDetails) await import('../app/server/business.server')
    return env
  } catch (error) {
    if (error instanceof Error && error.name === 'EnvError') {
      // One plain line for the person starting the store: the configuration, the logger's included, is not valid.
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

/** The address to open, and who can reach it. */
export function listeningOn(env: Env): string {
  const host = listenHost(env)
  if (host === undefined) return `http://localhost:${env.PORT} (every network interface)`
  const where = isLoopbackHost(host) ? 'this machine only' : 'reachable from the network'
  return `http://localhost:${env.PORT} (${host}: ${where})`
}

/** The warning for demo mode opened to the network on purpose (HOST beyond loopback with DEMO_MODE=1); undefined otherwise. */
export function demoOpenWarning(env: Env): string | undefined {
  if (!isDemoOpenToNetwork(env)) return undefined
  const rule = '!'.repeat(100)
  return [
    rule,
    `WARNING: demo mode is open to the network (HOST=${env.HOST}, DEMO_MODE=1). Anyone who reaches port ${env.PORT} can read`,
    'every sign-in code at /dev/outbox (the demo admin +919000000000 included) and act as any customer or as the admin.',
    'Use it only on a network you trust; a store for customers runs with DEMO_MODE=0 and real providers.',
    rule,
  ].join('\n')
}

/** What `npm start` and `npm run dev` say before "listening": which mode, which database. */
export function announceMode(env: Env, database: { embedded: boolean; providedInMs: number }): void {
  const warning = demoOpenWarning(env)
  if (warning) log.warn(warning)
  log.info(
    env.DEMO_MODE
      ? 'Demo mode: SMS and e-mail go to the dev outbox at /dev/outbox, payments to the sandbox gateway'
      : 'Production mode: real providers configured',
  )
  log.info(
    `Database: ${database.embedded ? `embedded PostgreSQL in ${env.EMBEDDED_PG_DIR} (started in ${Math.round(database.providedInMs)} ms)` : 'DATABASE_URL'}`,
  )
}
