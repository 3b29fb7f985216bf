import { describe, expect, it } from 'vitest'
import {
  assertStorageKey,
  InvalidStorageKeyError,
  S3_REQUEST_TIMEOUT_MS,
  S3_RETRIES,
  STORAGE_KEY_MAX_LENGTH,
} from '~/server/storage.server'

describe('assertStorageKey', () => {
  it.each(['pan-cards/user-1/0f3a9c.jpg', 'pan-cards/cm9x2k1_a-B/abc.webp', 'report', 'a/b/c/d.png'])(
    'accepts %j',
    (key) => {
      expect(() => assertStorageKey(key)).not.toThrow()
    },
  )

  it.each([
    '../x.jpg',
    'a/../x.jpg',
    './x.jpg',
    '/abs.jpg',
    'a\\b.jpg',
    'a//b.jpg',
    'a/',
    '.env',
    'a/b.tar.gz',
    'a/b.JPG',
    'a/b.jpg.content-type',
    'a b.jpg',
    'ä.jpg',
    '',
  ])('refuses %j', (key) => {
    expect(() => assertStorageKey(key)).toThrow(InvalidStorageKeyError)
  })

  it(`refuses keys longer than ${STORAGE_KEY_MAX_LENGTH} characters`, () => {
    expect(STORAGE_KEY_MAX_LENGTH).toBe(256)
    expect(() => assertStorageKey(`${'a'.repeat(252)}.jpg`)).not.toThrow()
    expect(() => assertStorageKey(`${'a'.repeat(253)}.jpg`)).toThrow(InvalidStorageKeyError)
  })
})

describe('S3 limits', () => {
  it('gives one call 30 seconds and two retries', () => {
    expect(S3_REQUEST_TIMEOUT_MS).toBe(30_000)
    expect(S3_RETRIES).toBe(2)
  })
})
