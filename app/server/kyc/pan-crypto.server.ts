import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'

// PANs at rest (docs/architecture.md, "PANs at rest"): AES-256-GCM with a random 96-bit IV per value,
// the key named in the stored text so keys can rotate, and an HMAC-SHA-256 of the PAN in its own
// column for lookups and uniqueness (the ciphertext differs every time, so it cannot be indexed).

const ALGORITHM = 'aes-256-gcm'
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
/** The format of the stored text: `pan1.<key id>.<iv>.<ciphertext>.<tag>`, base64url parts. */
const FORMAT = 'pan1'
/** A random 32-byte key has about 30 different byte values; "aaaa..." or a counter has far fewer. */
const MIN_DISTINCT_KEY_BYTES = 16

export type PanKey = { id: string; key: Buffer }

export type PanKeys = {
  /** Encrypts every new value. */
  current: PanKey
  /** Still decrypts values written under an earlier key, until re-encrypted. */
  previous: readonly PanKey[]
  /** The HMAC key of the lookup column; never rotated (rotating it means re-hashing every row). */
  lookup: Buffer
}

export class PanKeyError extends Error {
  override name = 'PanKeyError'
}

export class PanDecryptionError extends Error {
  override name = 'PanDecryptionError'
}

/** Why `text` is not a usable key (32 random bytes in base64 or base64url), or null when it is. */
export function panKeyProblem(text: string): string | null {
  const trimmed = text.trim()
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return 'must be 32 random bytes in base64 (openssl rand -base64 32)'
  const bytes = Buffer.from(trimmed, 'base64')
  if (bytes.length !== KEY_BYTES)
    return `must be 32 random bytes in base64 (openssl rand -base64 32); this one is ${bytes.length} bytes`
  if (new Set(bytes).size < MIN_DISTINCT_KEY_BYTES)
    return 'is too regular to be a random key; make one with openssl rand -base64 32'
  return null
}

/** A key from its base64 text, named by the first bytes of its SHA-256 (which reveals nothing of it). */
export function panKey(text: string): PanKey {
  const problem = panKeyProblem(text)
  if (problem) throw new PanKeyError(`The PAN key ${problem}`)
  const key = Buffer.from(text.trim(), 'base64')
  return { id: createHash('sha256').update(key).digest('base64url').slice(0, 8), key }
}

export function encryptPan(keys: PanKeys, pan: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv(ALGORITHM, keys.current.key, iv, { authTagLength: TAG_BYTES })
  // The key id is authenticated too: a value cannot be relabelled as another key's.
  cipher.setAAD(Buffer.from(`${FORMAT}.${keys.current.id}`))
  const ciphertext = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()])
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'))
  return [FORMAT, keys.current.id, ...parts].join('.')
}

/** True for text encryptPan wrote (a plaintext PAN has no dots). */
export function isEncryptedPan(text: string): boolean {
  return text.startsWith(`${FORMAT}.`)
}

/** The PAN in `stored`; throws PanDecryptionError for an unknown key, a changed value or a wrong key. */
export function decryptPan(keys: PanKeys, stored: string): string {
  const parts = stored.split('.')
  if (parts.length !== 5 || parts[0] !== FORMAT) throw new PanDecryptionError('The stored PAN is not encrypted text')
  const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string]
  const key = [keys.current, ...keys.previous].find((candidate) => candidate.id === keyId)
  if (!key) throw new PanDecryptionError(`The stored PAN was encrypted with key ${keyId}, which is not configured`)
  try {
    const decipher = createDecipheriv(ALGORITHM, key.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(`${FORMAT}.${keyId}`))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    throw new PanDecryptionError('The stored PAN failed its integrity check (changed, or another key)')
  }
}

/** The lookup column's value: the same PAN always gives the same hash, unreadable without the key. */
export function panLookupHash(keys: PanKeys, pan: string): string {
  return createHmac('sha256', keys.lookup).update(pan).digest('base64url')
}
