import { createHash, randomBytes } from 'node:crypto'
import { openAsBlob } from 'node:fs'
import { copyFile, mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { AwsClient } from 'aws4fetch'
import { env, type Env } from './env.server'

/** A file on this machine's disk to be stored, with what was learnt of it while it arrived. */
export type LocalFile = {
  path: string
  size: number
  /** Hex SHA-256 of its content. */
  sha256: string
}

export type StoredFile = {
  body: ReadableStream<Uint8Array>
  contentType: string
  size: number
}

/**
 * Private file storage addressed by key (`pan-cards/<userId>/<random>.jpg`). Nothing stored here
 * is ever public: files are read back only through `get`, by code that has checked who is asking.
 */
export interface FileStorage {
  readonly kind: 'filesystem' | 's3'
  /** Stores `bytes` under `key`, replacing any file there; readers never see a partial file. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /**
   * Stores the local file `file` under `key` without reading it into memory (an upload received by
   * readMultipartUpload), replacing any file there, and removes it from its place; readers never see
   * a partial file. When this fails, `file` may still be there for the caller to delete.
   */
  putFile(key: string, file: LocalFile, contentType: string): Promise<void>
  /** The file under `key`, or null when there is none. */
  get(key: string): Promise<StoredFile | null>
  /** Deletes the file under `key`; deleting a missing file is not an error. */
  delete(key: string): Promise<void>
}

export const STORAGE_KEY_MAX_LENGTH = 256
/** Folders of letters, digits, `_` and `-`, and a file name with at most one short extension. */
const STORAGE_KEY_PATTERN = /^(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+(?:\.[a-z0-9]{1,8})?$/
const FALLBACK_CONTENT_TYPE = 'application/octet-stream'

export class InvalidStorageKeyError extends Error {
  override name = 'InvalidStorageKeyError'
  constructor(key: string) {
    super(`Invalid storage key ${JSON.stringify(key.slice(0, STORAGE_KEY_MAX_LENGTH))}`)
  }
}

/** The storage provider failed (not a missing file: `get` answers null for that). */
export class StorageError extends Error {
  override name = 'StorageError'
}

/** Throws unless `key` is a storage key: no `..`, no absolute path, no backslash, no dot file. */
export function assertStorageKey(key: string): void {
  if (key.length > STORAGE_KEY_MAX_LENGTH || !STORAGE_KEY_PATTERN.test(key)) throw new InvalidStorageKeyError(key)
}

// ---------------------------------------------------------------------------------------------
// Filesystem: the default, for demo mode, development and a single-instance deployment.

export const STORED_FILE_MODE = 0o600
export const STORAGE_FOLDER_MODE = 0o700
// Key names cannot contain a hyphen in their extension nor start with a dot, so neither of these
// can collide with a stored file.
const CONTENT_TYPE_SUFFIX = '.content-type'
const TEMPORARY_PREFIX = '.'

function isMissingFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

const temporaryPathNextTo = (target: string) =>
  path.join(path.dirname(target), `${TEMPORARY_PREFIX}${path.basename(target)}.${randomBytes(8).toString('hex')}.tmp`)

/** Writes a temporary file next to `target` with `write` and renames it into place, so a crash leaves no half file. */
async function replaceAtomically(target: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = temporaryPathNextTo(target)
  try {
    await write(temporary)
    await rename(temporary, target)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

async function writeFileAtomically(target: string, bytes: Uint8Array): Promise<void> {
  await replaceAtomically(target, async (temporary) => {
    const handle = await open(temporary, 'wx', STORED_FILE_MODE)
    try {
      await handle.writeFile(bytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
  })
}

/**
 * Moves `source` to `target`: a rename when both are on one disk (uploads arrive inside UPLOADS_DIR),
 * else a copy next to `target` renamed into place, then the source deleted.
 */
async function moveFileAtomically(source: string, target: string): Promise<void> {
  try {
    await rename(source, target)
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
  }
  await replaceAtomically(target, async (temporary) => {
    await copyFile(source, temporary)
    const handle = await open(temporary, 'r+')
    try {
      await handle.chmod(STORED_FILE_MODE)
      await handle.sync()
    } finally {
      await handle.close()
    }
  })
  await rm(source, { force: true })
}

export function createFileSystemStorage(rootDir: string): FileStorage {
  const root = path.resolve(rootDir)

  function pathOf(key: string): string {
    assertStorageKey(key)
    const filePath = path.resolve(root, ...key.split('/'))
    // The key pattern already rules out traversal; this guards against a future change to it.
    if (!filePath.startsWith(root + path.sep)) throw new InvalidStorageKeyError(key)
    return filePath
  }

  return {
    kind: 'filesystem',

    async put(key, bytes, contentType) {
      const filePath = pathOf(key)
      await mkdir(path.dirname(filePath), { recursive: true, mode: STORAGE_FOLDER_MODE })
      // The content type first: a file is only visible once it is complete and typed.
      await writeFileAtomically(filePath + CONTENT_TYPE_SUFFIX, new TextEncoder().encode(contentType))
      await writeFileAtomically(filePath, bytes)
    },

    async putFile(key, file, contentType) {
      const filePath = pathOf(key)
      await mkdir(path.dirname(filePath), { recursive: true, mode: STORAGE_FOLDER_MODE })
      await writeFileAtomically(filePath + CONTENT_TYPE_SUFFIX, new TextEncoder().encode(contentType))
      await moveFileAtomically(file.path, filePath)
    },

    async get(key) {
      const filePath = pathOf(key)
      let handle: FileHandle
      try {
        handle = await open(filePath, 'r')
      } catch (error) {
        if (isMissingFileError(error)) return null
        throw error
      }
      try {
        const { size } = await handle.stat()
        const contentType = await readFile(filePath + CONTENT_TYPE_SUFFIX, 'utf8').catch((error: unknown) => {
          if (isMissingFileError(error)) return FALLBACK_CONTENT_TYPE
          throw error
        })
        // The stream closes the handle when it ends, fails or is cancelled.
        const body = Readable.toWeb(handle.createReadStream()) as unknown as ReadableStream<Uint8Array>
        return { body, contentType, size }
      } catch (error) {
        await handle.close()
        throw error
      }
    },

    async delete(key) {
      const filePath = pathOf(key)
      await rm(filePath, { force: true })
      await rm(filePath + CONTENT_TYPE_SUFFIX, { force: true })
    },
  }
}

// ---------------------------------------------------------------------------------------------
// S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, ...), signed with AWS SigV4.

export type S3StorageConfig = {
  bucket: string
  region: string
  /** Scheme and host only, e.g. `https://s3.ap-south-1.amazonaws.com`; objects use path-style URLs. */
  endpoint: string
  accessKeyId: string
  secretAccessKey: string
}

/** Time allowed for one S3 call up to its response headers, retries included. */
export const S3_REQUEST_TIMEOUT_MS = 30_000
/** aws4fetch retries 5xx and 429 answers with backoff; its default of 10 would hold a request for long. */
export const S3_RETRIES = 2
const S3_ERROR_DETAIL_MAX_CHARS = 300

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

export function createS3Storage(config: S3StorageConfig): FileStorage {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region,
    service: 's3',
    retries: S3_RETRIES,
  })
  const endpoint = config.endpoint.replace(/\/$/, '')

  function urlOf(key: string): string {
    assertStorageKey(key)
    return `${endpoint}/${encodeURIComponent(config.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`
  }

  /** Signs the payload hash (rather than UNSIGNED-PAYLOAD), so the provider rejects a corrupted body. */
  async function send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    {
      body = new Uint8Array(),
      bodySha256 = body instanceof Uint8Array ? sha256Hex(body) : undefined,
      contentType,
    }: { body?: Uint8Array | Blob; bodySha256?: string; contentType?: string } = {},
  ): Promise<Response> {
    const url = urlOf(key)
    if (!bodySha256) throw new TypeError(`S3 ${method} ${key} needs the body's SHA-256`)
    const headers: Record<string, string> = { 'X-Amz-Content-Sha256': bodySha256 }
    if (contentType) headers['Content-Type'] = contentType
    const timeout = new AbortController()
    const timer = setTimeout(() => timeout.abort(), S3_REQUEST_TIMEOUT_MS)
    try {
      return await client.fetch(url, {
        method,
        headers,
        // A Blob opened on a file (openAsBlob) is read from disk as it is sent, and again on a retry.
        body: method === 'PUT' ? (body as Uint8Array<ArrayBuffer> | Blob) : undefined,
        signal: timeout.signal,
      })
    } catch (error) {
      throw new StorageError(`S3 ${method} ${key} failed: ${(error as Error).message}`, { cause: error })
    } finally {
      clearTimeout(timer)
    }
  }

  async function failure(method: string, key: string, response: Response): Promise<StorageError> {
    const detail = (await response.text().catch(() => '')).slice(0, S3_ERROR_DETAIL_MAX_CHARS)
    return new StorageError(`S3 ${method} ${key} answered ${response.status}${detail ? `: ${detail}` : ''}`)
  }

  return {
    kind: 's3',

    async put(key, bytes, contentType) {
      const response = await send('PUT', key, { body: bytes, contentType })
      if (!response.ok) throw await failure('PUT', key, response)
      await response.body?.cancel()
    },

    async putFile(key, file, contentType) {
      const body = await openAsBlob(file.path)
      const response = await send('PUT', key, { body, bodySha256: file.sha256, contentType })
      if (!response.ok) throw await failure('PUT', key, response)
      await response.body?.cancel()
      await rm(file.path, { force: true })
    },

    async get(key) {
      const response = await send('GET', key)
      if (response.status === 404) {
        await response.body?.cancel()
        return null
      }
      if (!response.ok || !response.body) throw await failure('GET', key, response)
      const contentType = response.headers.get('Content-Type') ?? FALLBACK_CONTENT_TYPE
      const declaredSize = Number(response.headers.get('Content-Length'))
      if (Number.isSafeInteger(declaredSize) && declaredSize >= 0) {
        return { body: response.body, contentType, size: declaredSize }
      }
      const bytes = new Uint8Array(await response.arrayBuffer())
      return { body: new Blob([bytes]).stream(), contentType, size: bytes.length }
    },

    async delete(key) {
      const response = await send('DELETE', key)
      if (!response.ok && response.status !== 404) throw await failure('DELETE', key, response)
      await response.body?.cancel()
    },
  }
}

// ---------------------------------------------------------------------------------------------

type StorageEnv = Pick<
  Env,
  'UPLOADS_DIR' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ENDPOINT' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
>

/** S3-compatible storage when configured (env.server.ts makes that all-or-none), else the filesystem. */
export function createFileStorage(config: StorageEnv): FileStorage {
  const { S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = config
  if (S3_BUCKET && S3_REGION && S3_ENDPOINT && S3_ACCESS_KEY_ID && S3_SECRET_ACCESS_KEY) {
    return createS3Storage({
      bucket: S3_BUCKET,
      region: S3_REGION,
      endpoint: S3_ENDPOINT,
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
    })
  }
  return createFileSystemStorage(config.UPLOADS_DIR)
}

let configuredStorage: FileStorage | undefined

/** The storage this process uses, chosen from the environment on first use. */
export function getFileStorage(): FileStorage {
  configuredStorage ??= createFileStorage(env)
  return configuredStorage
}
