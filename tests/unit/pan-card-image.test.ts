import { describe, expect, it } from 'vitest'
import { PAN_CARD_ACCEPT, PAN_CARD_MAX_BYTES, PAN_CARD_MESSAGES, sniffPanCardImageType } from '~/domain/pan-card-image'
import {
  PAN_CARD_FORM_FIELDS_MAX_BYTES,
  PAN_CARD_FORM_MAX_PARTS,
  PAN_CARD_REQUEST_MAX_BYTES,
} from '~/server/kyc/pan-card-image.server'

const bytes = (...values: number[]) => Uint8Array.from(values)
const ascii = (text: string) => new TextEncoder().encode(text)
const concat = (...parts: Uint8Array[]) => {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let offset = 0
  for (const part of parts) {
    joined.set(part, offset)
    offset += part.length
  }
  return joined
}

describe('PAN card limits', () => {
  it('allows files of up to 10 MiB, as the label "under 10MB" promises', () => {
    expect(PAN_CARD_MAX_BYTES).toBe(10_485_760)
  })

  it('offers the accepted image types to the file picker', () => {
    expect(PAN_CARD_ACCEPT).toBe('image/jpeg,image/png,image/webp')
  })

  it('reads at most the file plus 64 KiB of other fields and multipart headers', () => {
    expect(PAN_CARD_FORM_FIELDS_MAX_BYTES).toBe(65_536)
    expect(PAN_CARD_REQUEST_MAX_BYTES).toBe(10_551_296)
    expect(PAN_CARD_REQUEST_MAX_BYTES).toBeLessThan(11 * 1024 * 1024)
  })

  it('takes at most 32 form parts', () => {
    expect(PAN_CARD_FORM_MAX_PARTS).toBe(32)
  })

  it('names the limit in the too-large message', () => {
    expect(PAN_CARD_MESSAGES.tooLarge).toContain('10 MB')
  })
})

describe('sniffPanCardImageType', () => {
  it('recognises a JPEG by FF D8 FF', () => {
    expect(sniffPanCardImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10))).toEqual({
      contentType: 'image/jpeg',
      extension: 'jpg',
    })
  })

  it('recognises a PNG by its 8-byte signature', () => {
    expect(sniffPanCardImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toEqual({
      contentType: 'image/png',
      extension: 'png',
    })
  })

  it('recognises a WebP by RIFF, any chunk size, then WEBP', () => {
    expect(sniffPanCardImageType(concat(ascii('RIFF'), bytes(0x24, 0x00, 0x00, 0x00), ascii('WEBPVP8 ')))).toEqual({
      contentType: 'image/webp',
      extension: 'webp',
    })
  })

  it('refuses a PDF, whatever it is called', () => {
    expect(sniffPanCardImageType(ascii('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n'))).toBeNull()
  })

  it('refuses other RIFF files such as WAV audio', () => {
    expect(sniffPanCardImageType(concat(ascii('RIFF'), bytes(0x24, 0, 0, 0), ascii('WAVEfmt ')))).toBeNull()
  })

  it('refuses other images and text', () => {
    expect(sniffPanCardImageType(ascii('GIF89a'))).toBeNull()
    expect(sniffPanCardImageType(ascii('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(sniffPanCardImageType(ascii('<html><script>alert(1)</script>'))).toBeNull()
  })

  it('refuses empty and truncated signatures', () => {
    expect(sniffPanCardImageType(new Uint8Array())).toBeNull()
    expect(sniffPanCardImageType(bytes(0xff, 0xd8))).toBeNull()
    expect(sniffPanCardImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a))).toBeNull()
    expect(sniffPanCardImageType(concat(ascii('RIFF'), bytes(0, 0, 0, 0), ascii('WEB')))).toBeNull()
  })

  it('looks only at the start of the file', () => {
    expect(sniffPanCardImageType(concat(bytes(0x00), bytes(0xff, 0xd8, 0xff)))).toBeNull()
  })
})
