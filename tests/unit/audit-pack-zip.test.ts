import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { yazlSumsWithZlib, zipEntries, zipStream } from '~/server/research/audit-pack-zip.server'

/** A zip of `entries` written to a file of its own, read back: each entry's bytes and the CRC-32 the zip holds for it. */
async function roundTrip(entries: { name: string; chunks: (string | Uint8Array)[] }[]) {
  const chunks: Buffer[] = []
  const sources = entries.map(({ name, chunks: content }) => ({
    name,
    content: async function* () {
      yield* content
    },
  }))
  for await (const chunk of zipStream(sources, new Date('2026-11-29T00:00:00Z'))) chunks.push(chunk)
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'audit-pack-zip-')), 'pack.zip')
  writeFileSync(file, Buffer.concat(chunks))
  const read: { name: string; crc32: number; bytes: Buffer }[] = []
  for await (const entry of zipEntries(file)) {
    const bytes: Buffer[] = []
    for await (const chunk of await entry.open()) bytes.push(chunk as Buffer)
    read.push({ name: entry.name, crc32: entry.crc32, bytes: Buffer.concat(bytes) })
  }
  return read
}

describe('the audit pack zip', () => {
  it("sums each entry with zlib's CRC-32, the sum of its whole content however it came in chunks", async () => {
    expect(yazlSumsWithZlib()).toBe(true)
    const rupee = Buffer.from('₹ राम 😀\n')
    const lines = Array.from({ length: 5_000 }, (_, row) => `{"row":${row},"name":"Rao ₹ राम 😀"}\n`)
    const entries = [
      { name: 'empty.txt', chunks: [] },
      { name: 'lines.jsonl', chunks: [lines.slice(0, 2_500).join(''), lines.slice(2_500).join('')] },
      // A character split between two chunks, and a chunk of one byte.
      { name: 'split.txt', chunks: [rupee.subarray(0, 2), rupee.subarray(2, 3), rupee.subarray(3)] },
    ]
    const read = await roundTrip(entries)
    expect(read.map((entry) => entry.name)).toEqual(['empty.txt', 'lines.jsonl', 'split.txt'])
    for (const [index, entry] of read.entries()) {
      const content = Buffer.concat(entries[index]!.chunks.map((chunk) => Buffer.from(chunk)))
      expect(entry.bytes.equals(content)).toBe(true)
      expect(entry.crc32).toBe(crc32(content))
    }
    expect(read[0]!.crc32).toBe(0)
  })
})
