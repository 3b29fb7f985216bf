import { createHmac } from 'node:crypto'
import { env } from './env.server'

// Demo mode and tests only: a deployment must set SESSION_SECRET (env validation refuses to start otherwise).
const DEMO_SECRET = 'research-store demo secret: not for production use'

/** A key for one purpose ("session", "otp", ...) derived from SESSION_SECRET, so no two uses share a key. */
export function serverSecret(purpose: string): string {
  return createHmac('sha256', env.SESSION_SECRET ?? DEMO_SECRET).update(purpose).digest('base64url')
}
