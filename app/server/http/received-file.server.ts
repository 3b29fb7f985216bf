import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rm, stat, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { PDF_ENDS_WINDOW_BYTES } from '~/domain/research-attachment'
import { env } from '../env.server'

// An uploaded file on its way to storage (decision 058): written to a temporary file as it arrives,
// hashed and measured on the way, with its first and last bytes kept for the checks by content.
// FileStorage.putFile then moves it into place (filesystem) or streams it up (S3).

/** The bytes the checks by content read at the start: a WebP's signature is 12, a PDF's header 8. */
export const RECEIVED_FILE_HEAD_BYTES = 64
/** …and at the end: where a PDF's end-of-file marker must be. */
export const RECEIVED_FILE_TAIL_BYTES = PDF_ENDS_WINDOW_BYTES
/** A temporary file older than this was left by a process that stopped mid-upload. */
export const INCOMING_FILE_STALE_MS = 60 * 60_000
const INCOMING_FILE_MODE = 0o600
const INCOMING_FOLDER_MODE = 0o700

export type ReceivedFile = {
  /** The temporary file; gone once stored (FileStorage.putFile) or discarded. */
  path: string
  size: number
  /** Hex SHA-256 of the whole file. */
  sha256: string
  /**
   * The file's first RECEIVED_FILE_HEAD_BYTES followed by its last RECEIVED_FILE_TAIL_BYTES (the
   * whole file when it is no longer than both): what sniffPanCardImageType and isPdf read.
   */
  ends: Uint8Array
  /** The name the browser sent, as typed. */
  filename: string
}

/**
 * Where uploads arrive: inside UPLOADS_DIR, so that the filesystem storage moves a file into place
 * with a rename on the same disk. Storage keys cannot start with a dot, so no key reaches it.
 */
export const incomingUploadsFolder = () => path.resolve(env.UPLOADS_DIR, '.incoming')

/** Deletes a received file that was not stored (deleting one already stored or gone is no error). */
export async function discardReceivedFile(file: Pick<ReceivedFile, 'path'> | null | undefined): Promise<void> {
  if (file) await rm(file.path, { force: true })
}

/** A file being received: write its pieces in order, then finish or discard it. */
export type FileReceiver = {
  write(bytes: Uint8Array): Promise<void>
  readonly size: number
  finish(filename: string): Promise<ReceivedFile>
  discard(): Promise<void>
}

const sweptFolders = new Set<string>()

/** Deletes what a stopped process left in `folder`, once per folder and process. */
async function sweepStaleFiles(folder: string, now = Date.now()): Promise<void> {
  if (sweptFolders.has(folder)) return
  sweptFolders.add(folder)
  for (const name of await readdir(folder).catch(() => [])) {
    const file = path.join(folder, name)
    const modified = await stat(file).then(
      (stats) => stats.mtimeMs,
      () => now,
    )
    if (now - modified > INCOMING_FILE_STALE_MS) await rm(file, { force: true })
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written)
    written += bytesWritten
  }
}

/** Opens a new temporary file in `folder` (by default incomingUploadsFolder()) for one upload. */
export async function receiveFile(folder = incomingUploadsFolder()): Promise<FileReceiver> {
  await mkdir(folder, { recursive: true, mode: INCOMING_FOLDER_MODE })
  await sweepStaleFiles(folder)
  const filePath = path.join(folder, `${randomBytes(16).toString('hex')}.upload`)
  const handle = await open(filePath, 'wx', INCOMING_FILE_MODE)
  const hash = createHash('sha256')
  const head = new Uint8Array(RECEIVED_FILE_HEAD_BYTES)
  let tail = new Uint8Array(0)
  let size = 0
  let isOpen = true

  const close = async () => {
    if (!isOpen) return
    isOpen = false
    await handle.close()
  }

  return {
    get size() {
      return size
    },

    async write(bytes) {
      if (size < RECEIVED_FILE_HEAD_BYTES) head.set(bytes.subarray(0, RECEIVED_FILE_HEAD_BYTES - size), size)
      const kept = Math.min(RECEIVED_FILE_TAIL_BYTES, tail.length + bytes.length)
      const nextTail = new Uint8Array(kept)
      const fromBytes = Math.min(kept, bytes.length)
      nextTail.set(tail.subarray(tail.length - (kept - fromBytes)), 0)
      nextTail.set(bytes.subarray(bytes.length - fromBytes), kept - fromBytes)
      tail = nextTail
      hash.update(bytes)
      size += bytes.length
      await writeAll(handle, bytes)
    },

    async finish(filename) {
      await handle.sync()
      await close()
      const headLength = Math.min(size, RECEIVED_FILE_HEAD_BYTES)
      // The tail's bytes that are not already in the head.
      const tailLength = Math.min(tail.length, size - headLength)
      const ends = new Uint8Array(headLength + tailLength)
      ends.set(head.subarray(0, headLength), 0)
      ends.set(tail.subarray(tail.length - tailLength), headLength)
      return { path: filePath, size, sha256: hash.digest('hex'), ends, filename }
    },

    async discard() {
      await close().catch(() => {})
      await rm(filePath, { force: true })
    },
  }
}

/**
 * A received file holding `bytes`, as if uploaded: for fixtures and the bench, which hand files to
 * the same store functions as the upload routes.
 */
export async function receivedFileOf(
  bytes: Uint8Array,
  { filename = 'file', folder }: { filename?: string; folder?: string } = {},
): Promise<ReceivedFile> {
  const receiver = await receiveFile(folder)
  try {
    await receiver.write(bytes)
    return await receiver.finish(filename)
  } catch (error) {
    await receiver.discard()
    throw error
  }
}
