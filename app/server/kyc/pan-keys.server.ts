import { createHmac } from 'node:crypto'
import path from 'node:path'
import { readOrCreateDemoSecret } from '../demo-secret.server'
import type { Env } from '../env.server'
import { panKey, type PanKeys } from './pan-crypto.server'

/** Beside the demo session key: `.data/demo-pan-key`, made once per data folder. */
export function demoPanKeyFile(env: Pick<Env, 'EMBEDDED_PG_DIR'>): string {
  return path.join(path.dirname(env.EMBEDDED_PG_DIR), 'demo-pan-key')
}

/**
 * The PAN keys from configuration. A deployment sets PAN_ENCRYPTION_KEY and PAN_LOOKUP_KEY (env
 * validation refuses to start otherwise, and takes them only together); demo mode and tests use the
 * data folder's random key, and a lookup key derived from it.
 */
export function panKeysFromEnv(
  env: Pick<Env, 'EMBEDDED_PG_DIR' | 'PAN_ENCRYPTION_KEY' | 'PAN_ENCRYPTION_OLD_KEYS' | 'PAN_LOOKUP_KEY'>,
): PanKeys {
  const previous = env.PAN_ENCRYPTION_OLD_KEYS.map(panKey)
  if (env.PAN_ENCRYPTION_KEY && env.PAN_LOOKUP_KEY)
    return { current: panKey(env.PAN_ENCRYPTION_KEY), previous, lookup: panKey(env.PAN_LOOKUP_KEY).key }
  const current = panKey(readOrCreateDemoSecret(demoPanKeyFile(env)))
  return { current, previous, lookup: createHmac('sha256', current.key).update('pan-lookup').digest() }
}
