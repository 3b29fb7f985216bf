import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { maskPan } from '~/domain/pan'
import {
  decryptPan,
  encryptPan,
  isEncryptedPan,
  PanDecryptionError,
  panKey,
  PanKeyError,
  panKeyProblem,
  panLookupHash,
  type PanKeys,
} from '~/server/kyc/pan-crypto.server'
import { panKeysFromEnv } from '~/server/kyc/pan-keys.server'

const KEY_A = 'EpurNXIXXGywshGmQXbJkyzMWehqZhlKRKZLN6fxUU8='
const KEY_B = 'cUALlm9JqaayINs5+XgOK9gvgalSwU0V52vog7BO9Kc='
const LOOKUP = Buffer.from('6HSSGbHTSgwsqI3cA/w4PPveW25bWPZVLOKSBxeWTMw=', 'base64')
const keysWith = (current: string, previous: string[] = []): PanKeys => ({
  current: panKey(current),
  previous: previous.map(panKey),
  lookup: LOOKUP,
})
const PAN = 'ABCPE1234F'

describe('PAN encryption', () => {
  it('round-trips, with a fresh IV each time and no trace of the PAN in the stored text', () => {
    const keys = keysWith(KEY_A)
    const first = encryptPan(keys, PAN)
    const second = encryptPan(keys, PAN)
    expect(first).not.toBe(second)
    expect(first).not.toContain(PAN)
    expect(isEncryptedPan(first)).toBe(true)
    expect(isEncryptedPan(PAN)).toBe(false)
    expect(decryptPan(keys, first)).toBe(PAN)
    expect(decryptPan(keys, second)).toBe(PAN)
  })

  it('names the key in the stored text, and reads old values after a rotation', () => {
    const before = encryptPan(keysWith(KEY_A), PAN)
    expect(before.split('.')[1]).toBe(panKey(KEY_A).id)
    const rotated = keysWith(KEY_B, [KEY_A])
    expect(decryptPan(rotated, before)).toBe(PAN)
    expect(encryptPan(rotated, PAN).split('.')[1]).toBe(panKey(KEY_B).id)
  })

  it('refuses a value whose key is not configured', () => {
    const stored = encryptPan(keysWith(KEY_A), PAN)
    expect(() => decryptPan(keysWith(KEY_B), stored)).toThrow(PanDecryptionError)
    expect(() => decryptPan(keysWith(KEY_B), stored)).toThrow(/not configured/)
  })

  it('refuses a value relabelled as another key (the wrong key)', () => {
    const [format, , ...rest] = encryptPan(keysWith(KEY_A), PAN).split('.')
    const relabelled = [format, panKey(KEY_B).id, ...rest].join('.')
    expect(() => decryptPan(keysWith(KEY_B), relabelled)).toThrow(/integrity check/)
  })

  it('refuses tampered ciphertext, IV or tag', () => {
    const keys = keysWith(KEY_A)
    const parts = encryptPan(keys, PAN).split('.')
    for (const index of [2, 3, 4]) {
      const bytes = Buffer.from(parts[index]!, 'base64url')
      bytes[0]! ^= 1
      const tampered = parts.map((part, i) => (i === index ? bytes.toString('base64url') : part)).join('.')
      expect(() => decryptPan(keys, tampered), `part ${index}`).toThrow(PanDecryptionError)
    }
    expect(() => decryptPan(keys, PAN)).toThrow(/not encrypted/)
  })
})

describe('PAN lookup hash', () => {
  it('is the same for the same PAN, different for another PAN or another key, and hides the PAN', () => {
    const keys = keysWith(KEY_A)
    expect(panLookupHash(keys, PAN)).toBe(panLookupHash(keysWith(KEY_B), PAN))
    expect(panLookupHash(keys, PAN)).not.toBe(panLookupHash(keys, 'ABCPE1234G'))
    expect(panLookupHash({ ...keys, lookup: Buffer.alloc(32, 7) }, PAN)).not.toBe(panLookupHash(keys, PAN))
    expect(panLookupHash(keys, PAN)).not.toContain(PAN)
  })
})

describe('PAN keys', () => {
  it('takes 32 random bytes in base64 and refuses short or regular ones', () => {
    expect(panKeyProblem(KEY_A)).toBeNull()
    expect(panKeyProblem('x'.repeat(43))).toMatch(/too regular/)
    expect(panKeyProblem('not base64!')).toMatch(/must be 32 random bytes/)
    expect(panKeyProblem(Buffer.alloc(16, 1).toString('base64'))).toMatch(/this one is 16 bytes/)
    expect(() => panKey('short')).toThrow(PanKeyError)
  })

  const folder = mkdtempSync(path.join(tmpdir(), 'pan-keys-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('in demo mode makes one key per data folder, the same on every start', () => {
    const env = { EMBEDDED_PG_DIR: path.join(folder, 'postgres'), PAN_ENCRYPTION_OLD_KEYS: [] }
    const first = panKeysFromEnv(env)
    const again = panKeysFromEnv(env)
    expect(again.current.id).toBe(first.current.id)
    expect(again.lookup.equals(first.lookup)).toBe(true)
    expect(first.lookup.equals(first.current.key)).toBe(false)
    const other = panKeysFromEnv({ ...env, EMBEDDED_PG_DIR: path.join(folder, 'other', 'postgres') })
    expect(other.current.id).not.toBe(first.current.id)
  })

  it('uses the configured keys when set', () => {
    const keys = panKeysFromEnv({
      EMBEDDED_PG_DIR: path.join(folder, 'unused', 'postgres'),
      PAN_ENCRYPTION_KEY: KEY_B,
      PAN_ENCRYPTION_OLD_KEYS: [KEY_A],
      PAN_LOOKUP_KEY: LOOKUP.toString('base64'),
    })
    expect(keys.current.id).toBe(panKey(KEY_B).id)
    expect(keys.previous.map((key) => key.id)).toEqual([panKey(KEY_A).id])
    expect(keys.lookup.equals(LOOKUP)).toBe(true)
  })
})

describe('maskPan', () => {
  it('shows the first five characters, four stars and the last', () => {
    expect(maskPan('ABCPE1234F')).toBe('ABCPE****F')
    expect(maskPan(null)).toBeNull()
    expect(maskPan('ABC')).toBe('***')
  })
})
