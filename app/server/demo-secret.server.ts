import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Env } from './env.server'

// Demo mode needs a key for cookies and codes without any configuration. A constant in the source
// would let anyone forge a demo store's cookies, so each data folder gets its own random key.

const SECRET_BYTES = 32
const FILE_NAME = 'demo-secret'

/**
 * Beside the embedded database's folder: `.data/demo-secret` by default, also with DATABASE_URL
 * (`npm start` sets DATABASE_URL to the embedded server's before the app reads it, so it cannot tell).
 */
export function demoSecretFile(env: Pick<Env, 'EMBEDDED_PG_DIR'>): string {
  return path.join(path.dirname(env.EMBEDDED_PG_DIR), FILE_NAME)
}

/** The key in `file`, created (random, mode 0600) by the first caller; later and concurrent callers read the same. */
export function readOrCreateDemoSecret(file: string): string {
  try {
    return usableSecret(file, readFileSync(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  mkdirSync(path.dirname(file), { recursive: true })
  // Written whole under a private name, then linked into place: a second process starting at the
  // same moment either wins the link or reads the finished file, never a half-written one.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(draft, randomBytes(SECRET_BYTES).toString('base64url'), { mode: 0o600 })
  try {
    linkSync(draft, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    rmSync(draft, { force: true })
  }
  return usableSecret(file, readFileSync(file, 'utf8'))
}

/** The same minimum as SESSION_SECRET's: an emptied or truncated file must not become a guessable key. */
const MIN_SECRET_CHARS = 32

function usableSecret(file: string, content: string): string {
  const secret = content.trim()
  if (secret.length < MIN_SECRET_CHARS)
    throw new Error(`${file} holds no usable key (under ${MIN_SECRET_CHARS} characters); delete it to get a new one`)
  return secret
}
