import { createHmac } from 'node:crypto'
import { demoSecretFile, readOrCreateDemoSecret } from './demo-secret.server'
import { env } from './env.server'

// A deployment must set SESSION_SECRET (env validation refuses to start otherwise); demo mode and
// tests use the data folder's own random key.
let demoSecret: string | undefined
const rootSecret = () => env.SESSION_SECRET ?? (demoSecret ??= readOrCreateDemoSecret(demoSecretFile(env)))

/** A key for one purpose ("session", "otp", ...) derived from SESSION_SECRET, so no two uses share a key. */
export function serverSecret(purpose: string): string {
  return createHmac('sha256', rootSecret()).update(purpose).digest('base64url')
}
