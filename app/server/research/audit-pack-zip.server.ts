import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import { crc32 } from 'node:zlib'
import yauzl from 'yauzl'
import yazl from 'yazl'

// The audit pack's zip (decision 041): yazl writes it, yauzl reads it, and only this module imports
// them (eslint.config.js). Entries are written one after the other, each from its own source opened
// only when its turn comes, so a pack of any size holds one batch of one file in memory.

/** A file of the pack: its name and its content, produced when the zip reaches it. */
export type ZipEntrySource = { name: string; content: () => AsyncIterable<string | Uint8Array> }

/**
 * yazl sums each entry with buffer-crc32, a byte at a time in JavaScript: 270 to 370 MB a second here, half as long
 * again as zlib takes to compress the same bytes (decision 064). zlib's own CRC-32 (Node 20.15 and 22.2 on) is the
 * same sum at 2.6 to 3.4 GB a second, so yazl's copy of buffer-crc32 is given it: yazl calls
 * `crc32.unsigned(chunk, previous)` on the module as each chunk passes, and zlib's `crc32(chunk, previous)` goes on
 * from `previous` the same way. The pack's bytes do not change; tests/unit/audit-pack-zip.test.ts holds both.
 */
const yazlsCrc32: { unsigned: (data: Buffer | string, previous?: number) => number } = createRequire(
  createRequire(import.meta.url).resolve('yazl'),
)('buffer-crc32')
yazlsCrc32.unsigned = crc32

/** Whether yazl sums entries with zlib's CRC-32 (after an upgrade of yazl it might no longer). */
export const yazlSumsWithZlib = () => yazlsCrc32.unsigned === crc32

/** zlib's fastest level, as for the CSV downloads: the pack is CPU-bound on a shared machine. */
const AUDIT_PACK_COMPRESSION_LEVEL = 1

/** The zip's bytes as they are written; `mtime` is each entry's time. */
export function zipStream(entries: ZipEntrySource[], mtime: Date): AsyncIterable<Buffer> {
  const zip = new yazl.ZipFile()
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { mtime, compressionLevel: AUDIT_PACK_COMPRESSION_LEVEL }, (callback) =>
      callback(null, Readable.from(entry.content(), { objectMode: false })),
    )
  }
  const output = zip.outputStream as Readable
  // A source that fails (a lost connection) ends the download with its error, never the process.
  zip.on('error', (error: Error) => output.destroy(error))
  zip.end()
  return output
}

/** Each entry of the zip file at `file`, in order: its name, the CRC-32 the zip holds for it and a reader of its bytes. */
export async function* zipEntries(
  file: string,
): AsyncGenerator<{ name: string; crc32: number; open: () => Promise<Readable> }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  )
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        zip.once('entry', resolve)
        zip.once('end', () => resolve(null))
        zip.once('error', reject)
        zip.readEntry()
      })
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error')
      if (!entry) return
      yield {
        name: entry.fileName,
        crc32: entry.crc32,
        open: () =>
          new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
          ),
      }
    }
  } finally {
    zip.close()
  }
}
