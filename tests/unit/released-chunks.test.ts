import { describe, expect, it } from 'vitest'
import { copyAndRelease, releasableChunk } from '~/server/http/released-chunks.server'

describe('copyAndRelease', () => {
  it("writes a marked chunk's bytes as a copy and empties the chunk, so what still holds it holds nothing", () => {
    // TextEncoder gives each result an ArrayBuffer of its own.
    const marked = releasableChunk(new TextEncoder().encode('Payment id,Created (IST)\r\n'))

    const written = copyAndRelease(marked)

    expect(written).not.toBe(marked)
    expect(Buffer.from(written as Uint8Array).toString()).toBe('Payment id,Created (IST)\r\n')
    expect(marked.byteLength).toBe(0)
    expect(marked.buffer.byteLength).toBe(0)
  })

  it('leaves anything unmarked as it is: a buffer it does not own whole may be shared', () => {
    const pooled = Buffer.from('shared slab')
    const text = 'a string'
    expect(copyAndRelease(pooled)).toBe(pooled)
    expect(pooled.toString()).toBe('shared slab')
    expect(copyAndRelease(text)).toBe(text)
  })
})
