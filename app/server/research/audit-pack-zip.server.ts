import { Readable } from 'node:stream'
import yauzl from 'yauzl'
import yazl from 'yazl'

// The audit pack's zip (decision 041): yazl writes it, yauzl reads it, and only this module imports
// them (eslint.config.js). Entries are written one after the other, each from its own source opened
// only when its turn comes, so a pack of any size holds one batch of one file in memory.

/** A file of the pack: its name and its content, produced when the zip reaches it. */
export type ZipEntrySource = { name: string; content: () => AsyncIterable<string | Uint8Array> }

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

/** Each entry of the zip file at `file`, in order: its name and a reader of its bytes. */
export async function* zipEntries(file: string): AsyncGenerator<{ name: string; open: () => Promise<Readable> }> {
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
