import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createFileStorage,
  createFileSystemStorage,
  createS3Storage,
  InvalidStorageKeyError,
  S3_RETRIES,
  StorageError,
  STORAGE_FOLDER_MODE,
  STORED_FILE_MODE,
  type FileStorage,
} from '~/server/storage.server'
import { receivedFileOf } from '~/server/http/received-file.server'
import { startFakeS3 } from '../support/fake-s3'
import { jpegOfSize } from '../support/multipart'

const bytesOf = async (body: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer())
const modeOf = async (target: string) => (await stat(target)).mode & 0o777
const IMAGE = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5])
/** An upload large enough to be read and sent in many pieces. */
const LARGE_IMAGE = jpegOfSize(3 * 1024 * 1024 + 17)
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  )

const TRAVERSAL_KEYS = [
  '../escaped.jpg',
  'pan-cards/../../escaped.jpg',
  'pan-cards/..',
  '/etc/passwd',
  'pan-cards\\..\\escaped.jpg',
  'pan-cards//double.jpg',
  '.hidden',
  'pan-cards/.hidden.jpg',
  'pan-cards/u1/a.jpg.content-type',
  'pan-cards/u1/%2e%2e/a.jpg',
  'pan-cards/u1/a b.jpg',
  'pan-cards/u1/a.jpg\0.png',
  '',
  `${'a'.repeat(300)}.jpg`,
]

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort()
}

describe('filesystem storage', () => {
  let sandbox: string
  let root: string
  let storage: FileStorage

  beforeEach(async () => {
    sandbox = await mkdtemp(path.join(os.tmpdir(), 'rs-storage-'))
    root = path.join(sandbox, 'uploads')
    storage = createFileSystemStorage(root)
  })

  afterEach(async () => {
    await rm(sandbox, { recursive: true, force: true })
  })

  it('gives back what was stored, with its content type and size', async () => {
    await storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    const stored = await storage.get('pan-cards/user-1/abc.jpg')
    expect(stored).toMatchObject({ contentType: 'image/jpeg', size: IMAGE.length })
    expect(await bytesOf(stored!.body)).toEqual(IMAGE)
  })

  it('writes files readable by the owner only (0600) in folders only the owner can enter (0700)', async () => {
    await storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    expect(STORED_FILE_MODE).toBe(0o600)
    expect(STORAGE_FOLDER_MODE).toBe(0o700)
    expect(await modeOf(path.join(root, 'pan-cards/user-1/abc.jpg'))).toBe(0o600)
    expect(await modeOf(path.join(root, 'pan-cards/user-1/abc.jpg.content-type'))).toBe(0o600)
    for (const folder of ['', 'pan-cards', 'pan-cards/user-1']) {
      expect(await modeOf(path.join(root, folder))).toBe(0o700)
    }
  })

  it('leaves no temporary files behind and replaces a file in place', async () => {
    await storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    await storage.put('pan-cards/user-1/abc.jpg', Uint8Array.from([0x89, 0x50]), 'image/png')
    expect(await filesUnder(root)).toEqual(['pan-cards/user-1/abc.jpg', 'pan-cards/user-1/abc.jpg.content-type'])
    const stored = await storage.get('pan-cards/user-1/abc.jpg')
    expect(stored?.contentType).toBe('image/png')
    expect(await bytesOf(stored!.body)).toEqual(Uint8Array.from([0x89, 0x50]))
  })

  it('removes its temporary file when the write cannot complete', async () => {
    await mkdir(path.join(root, 'pan-cards/user-1/abc.jpg'), { recursive: true })
    await expect(storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')).rejects.toThrow()
    expect(await filesUnder(root)).toEqual(['pan-cards/user-1/abc.jpg.content-type'])
  })

  it('moves a received file into place (putFile): its bytes intact, readable by the owner only, nothing left where it arrived', async () => {
    const received = await receivedFileOf(LARGE_IMAGE, { folder: path.join(root, '.incoming') })
    await storage.putFile('pan-cards/user-1/big.jpg', received, 'image/jpeg')
    const stored = await storage.get('pan-cards/user-1/big.jpg')
    expect(stored).toMatchObject({ contentType: 'image/jpeg', size: LARGE_IMAGE.length })
    expect(sha256Of(await bytesOf(stored!.body))).toBe(sha256Of(LARGE_IMAGE))
    expect(await modeOf(path.join(root, 'pan-cards/user-1/big.jpg'))).toBe(0o600)
    expect(await exists(received.path)).toBe(false)
    expect(await filesUnder(root)).toEqual(['pan-cards/user-1/big.jpg', 'pan-cards/user-1/big.jpg.content-type'])
  })

  it('answers null for a missing file and deletes quietly what is not there', async () => {
    expect(await storage.get('pan-cards/user-1/missing.jpg')).toBeNull()
    expect(await storage.get('pan-cards/nobody/missing.jpg')).toBeNull()
    await expect(storage.delete('pan-cards/user-1/missing.jpg')).resolves.toBeUndefined()
  })

  it('deletes a file with its content type', async () => {
    await storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    await storage.delete('pan-cards/user-1/abc.jpg')
    expect(await storage.get('pan-cards/user-1/abc.jpg')).toBeNull()
    expect(await filesUnder(root)).toEqual([])
  })

  it('reads a file with no recorded content type as application/octet-stream', async () => {
    await mkdir(path.join(root, 'legacy'), { recursive: true })
    await writeFile(path.join(root, 'legacy/file.bin'), IMAGE)
    expect((await storage.get('legacy/file.bin'))?.contentType).toBe('application/octet-stream')
  })

  it.each(TRAVERSAL_KEYS)('refuses the key %j for put, get and delete', async (key) => {
    await writeFile(path.join(sandbox, 'escaped.jpg'), 'outside the uploads folder')
    await expect(storage.put(key, IMAGE, 'image/jpeg')).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.get(key)).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError)
    expect(await filesUnder(sandbox)).toEqual(['escaped.jpg'])
  })
})

describe('S3-compatible storage', () => {
  const credentials = {
    bucket: 'research-store-test',
    region: 'ap-south-1',
    accessKeyId: 'AKIDEXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  }
  let fake: Awaited<ReturnType<typeof startFakeS3>>
  let storage: FileStorage

  beforeAll(async () => {
    fake = await startFakeS3(credentials)
  })
  afterAll(async () => {
    await fake.close()
  })
  beforeEach(() => {
    fake.requests.length = 0
    fake.objects.clear()
    fake.setOverride(undefined)
    storage = createS3Storage({ ...credentials, endpoint: fake.endpoint })
  })

  it('PUTs the bytes to /bucket/key, signed with SigV4 over a hash of the body', async () => {
    await storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    expect(fake.requests).toHaveLength(1)
    const [request] = fake.requests
    expect(request).toMatchObject({
      method: 'PUT',
      path: '/research-store-test/pan-cards/user-1/abc.jpg',
      signatureValid: true,
    })
    expect(new Uint8Array(request!.body)).toEqual(IMAGE)
    expect(request!.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-length': String(IMAGE.length),
      'x-amz-content-sha256': createHash('sha256').update(IMAGE).digest('hex'),
    })
    expect(request!.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/)
    expect(request!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-south-1\/s3\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    )
    // Private by default: no ACL header would make the object public.
    expect(request!.headers['x-amz-acl']).toBeUndefined()
  })

  it('streams a received file up (putFile), signed over the SHA-256 taken as it arrived, and deletes it here', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'rs-incoming-'))
    try {
      const received = await receivedFileOf(LARGE_IMAGE, { folder })
      expect(received.sha256).toBe(sha256Of(LARGE_IMAGE))
      await storage.putFile('pan-cards/user-1/big.jpg', received, 'image/jpeg')
      const [request] = fake.requests
      expect(request).toMatchObject({ method: 'PUT', path: '/research-store-test/pan-cards/user-1/big.jpg' })
      expect(request!.signatureValid).toBe(true)
      expect(request!.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'content-length': String(LARGE_IMAGE.length),
        'x-amz-content-sha256': sha256Of(LARGE_IMAGE),
      })
      expect(sha256Of(fake.objects.get('pan-cards/user-1/big.jpg')!.body)).toBe(sha256Of(LARGE_IMAGE))
      expect(await readdir(folder)).toEqual([])
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('sends a received file whole again when the provider answers a server error, and keeps it when the PUT fails', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'rs-incoming-'))
    try {
      let failures = 1
      fake.setOverride(() =>
        failures-- > 0 ? { status: 503, body: '<Error><Code>SlowDown</Code></Error>' } : undefined,
      )
      await storage.putFile('pan-cards/user-1/big.jpg', await receivedFileOf(LARGE_IMAGE, { folder }), 'image/jpeg')
      expect(fake.requests.map((request) => request.body.length)).toEqual([LARGE_IMAGE.length, LARGE_IMAGE.length])
      expect(sha256Of(fake.objects.get('pan-cards/user-1/big.jpg')!.body)).toBe(sha256Of(LARGE_IMAGE))

      fake.setOverride(() => ({ status: 403, body: '<Error><Code>AccessDenied</Code></Error>' }))
      const refused = await receivedFileOf(IMAGE, { folder })
      await expect(storage.putFile('pan-cards/user-1/small.jpg', refused, 'image/jpeg')).rejects.toThrow(StorageError)
      expect(await exists(refused.path)).toBe(true)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  })

  it('GETs an object back with its content type and size', async () => {
    await storage.put('pan-cards/user-1/abc.png', IMAGE, 'image/png')
    const stored = await storage.get('pan-cards/user-1/abc.png')
    expect(stored).toMatchObject({ contentType: 'image/png', size: IMAGE.length })
    expect(await bytesOf(stored!.body)).toEqual(IMAGE)
    expect(fake.requests.map(({ method, path, signatureValid }) => ({ method, path, signatureValid }))).toEqual([
      { method: 'PUT', path: '/research-store-test/pan-cards/user-1/abc.png', signatureValid: true },
      { method: 'GET', path: '/research-store-test/pan-cards/user-1/abc.png', signatureValid: true },
    ])
    expect(fake.requests[1]!.headers['x-amz-content-sha256']).toBe(createHash('sha256').update('').digest('hex'))
  })

  it('answers null for a missing object', async () => {
    expect(await storage.get('pan-cards/user-1/missing.jpg')).toBeNull()
  })

  it('DELETEs an object, and deleting a missing one is not an error', async () => {
    await storage.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    await storage.delete('pan-cards/user-1/abc.jpg')
    await storage.delete('pan-cards/user-1/abc.jpg')
    expect(fake.objects.size).toBe(0)
    expect(
      fake.requests.slice(1).map(({ method, path, signatureValid }) => ({ method, path, signatureValid })),
    ).toEqual([
      { method: 'DELETE', path: '/research-store-test/pan-cards/user-1/abc.jpg', signatureValid: true },
      { method: 'DELETE', path: '/research-store-test/pan-cards/user-1/abc.jpg', signatureValid: true },
    ])
    fake.setOverride(({ method }) => (method === 'DELETE' ? { status: 404 } : undefined))
    await expect(storage.delete('pan-cards/user-1/abc.jpg')).resolves.toBeUndefined()
  })

  it('reports a refusal with the status and the provider error, without the secret', async () => {
    const wrongSecret = createS3Storage({ ...credentials, secretAccessKey: 'not-the-secret', endpoint: fake.endpoint })
    const refusal = wrongSecret.put('pan-cards/user-1/abc.jpg', IMAGE, 'image/jpeg')
    await expect(refusal).rejects.toThrow(StorageError)
    await expect(refusal).rejects.toThrow(/^S3 PUT pan-cards\/user-1\/abc\.jpg answered 403: .*SignatureDoesNotMatch/)
    await expect(refusal).rejects.not.toThrow(/not-the-secret/)
    expect(fake.objects.size).toBe(0)
  })

  it(`retries a server error ${S3_RETRIES} times, then fails`, async () => {
    fake.setOverride(() => ({ status: 503, body: '<Error><Code>SlowDown</Code></Error>' }))
    await expect(storage.get('pan-cards/user-1/abc.jpg')).rejects.toThrow(/answered 503: .*SlowDown/)
    expect(fake.requests).toHaveLength(1 + S3_RETRIES)
  })

  it('fails with a StorageError when the provider cannot be reached', async () => {
    const unreachable = createS3Storage({ ...credentials, endpoint: 'http://127.0.0.1:1' })
    await expect(unreachable.get('pan-cards/user-1/abc.jpg')).rejects.toThrow(StorageError)
  })

  it('refuses a traversal key without sending anything', async () => {
    await expect(storage.put('../other-bucket/x.jpg', IMAGE, 'image/jpeg')).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.get('pan-cards/../x.jpg')).rejects.toThrow(InvalidStorageKeyError)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('createFileStorage', () => {
  it('uses the filesystem unless S3 is configured', () => {
    expect(createFileStorage({ UPLOADS_DIR: '.data/uploads' }).kind).toBe('filesystem')
    expect(
      createFileStorage({
        UPLOADS_DIR: '.data/uploads',
        S3_BUCKET: 'b-1',
        S3_REGION: 'auto',
        S3_ENDPOINT: 'https://example.r2.cloudflarestorage.com',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).kind,
    ).toBe('s3')
  })
})
