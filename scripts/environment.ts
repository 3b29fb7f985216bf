// The environment as every script sees it. A wrong variable stops the script with one line naming
// it (an EnvError), not a stack trace.
import type { Env } from '../app/server/env.server'

/** `businessDetails`: also check the business details now rather than on the first page. */
export async function loadEnvironment({ businessDetails = false } = {}): Promise<Env> {
  try {
    const { env } = await import('../app/server/env.server')
    if (businessDetails) await import('../app/server/business.server')
    return env
  } catch (error) {
    if (error instanceof Error && error.name === 'EnvError') {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}

/** What `npm start` and `npm run dev` say before "listening": which mode, which database. */
export function announceMode(env: Env, database: { embedded: boolean; providedInMs: number }): void {
  console.log(
    env.DEMO_MODE
      ? 'Demo mode: SMS and e-mail go to the dev outbox at /dev/outbox, payments to the sandbox gateway'
      : 'Production mode: real providers configured',
  )
  console.log(
    `Database: ${database.embedded ? `embedded PostgreSQL in ${env.EMBEDDED_PG_DIR} (started in ${Math.round(database.providedInMs)} ms)` : 'DATABASE_URL'}`,
  )
}
