import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { panCardResponse, readPanCardUpload, storePanCard } from '~/server/kyc/pan-card-image.server'
import { receivedFileOf } from '~/server/http/received-file.server'
import { createFileSystemStorage, getFileStorage, type FileStorage } from '~/server/storage.server'
import { formRequest, jpegOfSize, PDF, TINY_PNG, TINY_WEBP } from '../support/multipart'

// The default storage reads UPLOADS_DIR when env.server.ts is first imported, before this file runs.
const defaultUploadsDir = vi.hoisted(() => {
  const folder = `${process.env.TMPDIR ?? '/tmp'}/rs-default-uploads-${process.pid}-${Date.now()}`
  process.env.UPLOADS_DIR = folder
  return folder
})

/** An upload as readPanCardUpload hands it on: received to a temporary file. */
const received = async (bytes: Uint8Array) => ({ file: await receivedFileOf(bytes) })

const KEY_PATTERN = /^pan-cards\/user-1\/[0-9a-f]{32}\.(jpg|png|webp)$/
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())

let sandbox: string
let storage: FileStorage

beforeEach(async () => {
  sandbox = await mkdtemp(path.join(os.tmpdir(), 'rs-pan-cards-'))
  storage = createFileSystemStorage(sandbox)
})

afterEach(async () => {
  await rm(sandbox, { recursive: true, force: true })
})

afterAll(async () => {
  await rm(defaultUploadsDir, { recursive: true, force: true })
})

async function storedKeys(): Promise<string[]> {
  const entries = await readdir(sandbox, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.content-type'))
    .map((entry) => path.relative(sandbox, path.join(entry.parentPath, entry.name)))
    .sort()
}

describe('storePanCard', () => {
  it('stores the image privately under a random key in the user folder', async () => {
    const key = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    expect(key).toMatch(KEY_PATTERN)
    expect(key.endsWith('.png')).toBe(true)
    expect((await stat(path.join(sandbox, key))).mode & 0o777).toBe(0o600)
    const stored = await storage.get(key)
    expect(stored).toMatchObject({ contentType: 'image/png', size: TINY_PNG.length })
  })

  it('gives every upload a new key', async () => {
    const first = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    const second = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    expect(first).not.toBe(second)
  })

  it('replaces the previous file on re-upload', async () => {
    const first = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    const second = await storePanCard('user-1', await received(TINY_WEBP), first, { storage })
    expect(second.endsWith('.webp')).toBe(true)
    expect(await storedKeys()).toEqual([second])
    expect(await storage.get(first)).toBeNull()
  })

  it('deletes the previous file only after recordKey saved the new key', async () => {
    const first = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    const recorded: string[] = []
    const second = await storePanCard('user-1', await received(TINY_WEBP), first, {
      storage,
      recordKey: async (key) => {
        expect(await storedKeys()).toEqual([first, key].sort())
        recorded.push(key)
      },
    })
    expect(recorded).toEqual([second])
    expect(await storedKeys()).toEqual([second])
  })

  it('keeps the previous file, and removes the new one, when recordKey fails', async () => {
    const first = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    const failingSave = storePanCard('user-1', await received(TINY_WEBP), first, {
      storage,
      recordKey: async () => {
        throw new Error('database unavailable')
      },
    })
    await expect(failingSave).rejects.toThrow('database unavailable')
    expect(await storedKeys()).toEqual([first])
  })

  it("never deletes another user's file passed as the previous key", async () => {
    const theirs = await storePanCard('user-2', await received(TINY_PNG), null, { storage })
    await storePanCard('user-1', await received(TINY_PNG), theirs, { storage })
    expect(await storage.get(theirs)).not.toBeNull()
  })

  it('still succeeds when the previous file is already gone', async () => {
    const key = await storePanCard('user-1', await received(TINY_PNG), 'pan-cards/user-1/gone.png', { storage })
    expect(key).toMatch(KEY_PATTERN)
  })

  it('refuses bytes that are not an accepted image, storing nothing', async () => {
    await expect(storePanCard('user-1', await received(PDF), null, { storage })).rejects.toThrow(TypeError)
    expect(await storedKeys()).toEqual([])
  })

  it('uses the configured storage by default: UPLOADS_DIR on the filesystem', async () => {
    expect(getFileStorage().kind).toBe('filesystem')
    const key = await storePanCard('user-1', await received(TINY_PNG))
    expect((await stat(path.join(defaultUploadsDir, key))).mode & 0o777).toBe(0o600)
    expect((await panCardResponse(key)).status).toBe(200)
  })
})

describe('panCardResponse', () => {
  it('serves the image with its type, inline, uncached and unsniffable', async () => {
    const key = await storePanCard('user-1', await received(TINY_PNG), null, { storage })
    const response = await panCardResponse(key, { storage })
    expect(response.status).toBe(200)
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'image/png',
      'content-length': String(TINY_PNG.length),
      'content-disposition': 'inline; filename="pan-card.png"',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'content-security-policy': "default-src 'none'",
      'cross-origin-resource-policy': 'same-origin',
    })
    expect(await bytesOf(response)).toEqual(TINY_PNG)
  })

  it('answers 404 for a missing file, a user without one, and a key outside the PAN cards', async () => {
    await storage.put('payment-proofs/user-1/receipt.png', TINY_PNG, 'image/png')
    for (const key of ['pan-cards/user-1/missing.png', null, undefined, '', 'payment-proofs/user-1/receipt.png']) {
      const response = await panCardResponse(key, { storage })
      expect(response.status).toBe(404)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('cache-control')).toBe('private, no-store')
    }
  })

  it('downloads rather than renders a stored file that is not an accepted image', async () => {
    await storage.put('pan-cards/user-1/odd.html', new TextEncoder().encode('<script>alert(1)</script>'), 'text/html')
    const response = await panCardResponse('pan-cards/user-1/odd.html', { storage })
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('content-disposition')).toBe('attachment')
  })
})

describe('a 9.9 MB upload', () => {
  it('is parsed and stored in well under a few seconds', async () => {
    const size = Math.floor(9.9 * 1024 * 1024)
    const request = formRequest((form) =>
      form.append('pancard', new File([jpegOfSize(size)], 'scan.jpg', { type: 'image/jpeg' })),
    )
    const started = performance.now()
    const upload = await readPanCardUpload(request)
    const parsed = performance.now()
    if (!upload.ok) throw new Error(upload.message)
    const key = await storePanCard('user-1', upload, null, { storage })
    const stored = performance.now()
    expect((await stat(path.join(sandbox, key))).size).toBe(size)
    console.info(
      `9.9 MB PAN card: parsed in ${(parsed - started).toFixed(0)} ms, stored in ${(stored - parsed).toFixed(0)} ms`,
    )
    expect(stored - started).toBeLessThan(5_000)
  })
})
