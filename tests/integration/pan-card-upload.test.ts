import { readFile, rm } from 'node:fs/promises'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { PAN_CARD_MAX_BYTES, PAN_CARD_MESSAGES } from '~/domain/pan-card-image'
import {
  PAN_CARD_FORM_FIELDS_MAX_BYTES,
  PAN_CARD_FORM_MAX_PARTS,
  PAN_CARD_REQUEST_MAX_BYTES,
  readPanCardUpload,
  type PanCardUploadResult,
} from '~/server/kyc/pan-card-image.server'
import { discardReceivedFile } from '~/server/http/received-file.server'
import {
  BOUNDARY,
  concatBytes,
  formRequest,
  jpegOfSize,
  multipartHead,
  multipartTail,
  PDF,
  rawRequest,
  streamedUploadRequest,
  TINY_PNG,
  TINY_WEBP,
  UPLOAD_URL,
} from '../support/multipart'

// Accepted uploads arrive in UPLOADS_DIR, read when env.server.ts is first imported, before this file runs.
const uploadsDir = vi.hoisted(() => {
  const folder = `${process.env.TMPDIR ?? '/tmp'}/rs-upload-reads-${process.pid}-${Date.now()}`
  process.env.UPLOADS_DIR = folder
  return folder
})

afterAll(async () => {
  await rm(uploadsDir, { recursive: true, force: true })
})

const MB = 1024 * 1024
const encoder = new TextEncoder()

function expectRefusal(result: PanCardUploadResult, status: number, message: string) {
  expect(result).toMatchObject({ ok: false, status, message })
}

/** A whole multipart body with one file part, for tests that tamper with the bytes. */
function multipartBody(fileBytes: Uint8Array, fields: Record<string, string> = { intent: 'upload' }) {
  return concatBytes(
    multipartHead(fields, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' }),
    fileBytes,
    multipartTail(),
  )
}

describe('readPanCardUpload: accepted images', () => {
  it.each([
    ['PNG', TINY_PNG, 'image/png', 'png'],
    ['WebP', TINY_WEBP, 'image/webp', 'webp'],
    ['JPEG', jpegOfSize(2048), 'image/jpeg', 'jpg'],
  ])(
    'accepts a %s and returns its bytes, sniffed type and the other fields',
    async (_label, image, contentType, extension) => {
      const result = await readPanCardUpload(
        formRequest((form) => {
          form.append('intent', 'upload-pan-card')
          form.append(
            'pancard',
            new File([image as Uint8Array<ArrayBuffer>], 'card.img', { type: 'application/octet-stream' }),
          )
          form.append('note', 'नमस्ते')
        }),
      )
      expect(result).toMatchObject({ ok: true, contentType, extension, size: image.length })
      if (!result.ok) return
      expect(new Uint8Array(await readFile(result.file.path))).toEqual(image)
      await discardReceivedFile(result.file)
      expect(Object.fromEntries(result.fields)).toEqual({ intent: 'upload-pan-card', note: 'नमस्ते' })
    },
  )

  it('believes the bytes, not the file name or declared type', async () => {
    const result = await readPanCardUpload(
      formRequest((form) => form.append('pancard', new File([TINY_PNG], 'pan.pdf', { type: 'application/pdf' }))),
    )
    expect(result).toMatchObject({ ok: true, contentType: 'image/png', extension: 'png' })
  })

  it('reads the file from another field name when asked', async () => {
    const request = formRequest((form) => form.append('panCardImage', new File([TINY_PNG], 'card.png')))
    expect(await readPanCardUpload(request, { fieldName: 'panCardImage' })).toMatchObject({ ok: true })
  })

  it('accepts a file of exactly 10 MiB', async () => {
    const { request, progress } = streamedUploadRequest(PAN_CARD_MAX_BYTES)
    const result = await readPanCardUpload(request)
    expect(result).toMatchObject({ ok: true, size: PAN_CARD_MAX_BYTES, contentType: 'image/jpeg' })
    expect(progress.pulledBytes).toBe(progress.totalBytes)
  })

  it('copes with a body delivered one byte at a time, and with text after the closing boundary', async () => {
    const body = concatBytes(multipartBody(TINY_PNG), encoder.encode('epilogue that RFC 2046 says to ignore'))
    expect(await readPanCardUpload(rawRequest(body, { chunkBytes: 1 }))).toMatchObject({
      ok: true,
      size: TINY_PNG.length,
    })
  })
})

describe('readPanCardUpload: too large (413)', () => {
  it('stops reading an 11 MB upload soon after 10 MB, without cancelling the body', async () => {
    const { request, progress } = streamedUploadRequest(11 * MB)
    const result = await readPanCardUpload(request)
    expectRefusal(result, 413, 'The file is larger than 10 MB. Upload a smaller photo or scan of your PAN card.')
    expect(result.fields.get('intent')).toBe('upload')
    expect(progress.pulledBytes).toBeLessThanOrEqual(PAN_CARD_REQUEST_MAX_BYTES + 64 * 1024)
    expect(progress.pulledBytes).toBeLessThan(progress.totalBytes - 900 * 1024)
    // Cancelling would destroy the socket under @react-router/node, and lose the 413 page; the
    // response closes the connection instead.
    expect(progress.cancelled).toBe(false)
    expect(result).toMatchObject({ headers: { Connection: 'close' } })
  })

  it('refuses a file one byte over 10 MiB', async () => {
    const { request } = streamedUploadRequest(PAN_CARD_MAX_BYTES + 1)
    expectRefusal(await readPanCardUpload(request), 413, PAN_CARD_MESSAGES.tooLarge)
  })

  it('refuses an 11 MB file sent with FormData', async () => {
    const request = formRequest((form) =>
      form.append('pancard', new File([jpegOfSize(11 * MB)], 'big.jpg', { type: 'image/jpeg' })),
    )
    expectRefusal(await readPanCardUpload(request), 413, PAN_CARD_MESSAGES.tooLarge)
  })

  it('reads only the first 64 KiB of a body whose declared Content-Length is over the cap, keeping the fields before the file', async () => {
    const { request, progress } = streamedUploadRequest(11 * MB, {
      headers: { 'Content-Length': String(11 * MB + 300) },
    })
    const result = await readPanCardUpload(request)
    expectRefusal(result, 413, PAN_CARD_MESSAGES.tooLarge)
    expect(result).toMatchObject({ headers: { Connection: 'close' } })
    expect(result.fields.get('intent')).toBe('upload')
    expect(progress.pulledBytes).toBeLessThanOrEqual(PAN_CARD_FORM_FIELDS_MAX_BYTES + 64 * 1024 + 1024)
  })

  it('believes a declared Content-Length over the cap even when the body turns out short', async () => {
    const body = multipartBody(TINY_PNG)
    const request = new Request(UPLOAD_URL, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(PAN_CARD_REQUEST_MAX_BYTES + 1),
      },
      body,
    })
    expectRefusal(await readPanCardUpload(request), 413, PAN_CARD_MESSAGES.tooLarge)
  })

  it('caps the whole body, not just the file: a small image after two 6 MB fields', async () => {
    const padding = 'x'.repeat(6 * MB)
    const body = concatBytes(multipartHead({ padding1: padding, padding2: padding }), multipartBody(TINY_PNG))
    expectRefusal(await readPanCardUpload(rawRequest(body)), 413, PAN_CARD_MESSAGES.tooLarge)
  })
})

describe('readPanCardUpload: not an accepted image (415)', () => {
  it('refuses a PDF renamed to .jpg and declared image/jpeg, keeping the other fields', async () => {
    const result = await readPanCardUpload(
      formRequest((form) => {
        form.append('intent', 'upload')
        form.append('pancard', new File([PDF], 'pan-card.jpg', { type: 'image/jpeg' }))
      }),
    )
    expectRefusal(
      result,
      415,
      'Upload a JPEG, PNG or WebP image of your PAN card. PDFs and other files are not accepted.',
    )
    expect(result.fields.get('intent')).toBe('upload')
    // The whole body was read, so the connection can be kept alive.
    expect(result).toMatchObject({ headers: {} })
  })

  it.each([
    ['a GIF', encoder.encode('GIF89a\x01\x00\x01\x00')],
    ['an SVG', encoder.encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['an HTML page', encoder.encode('<!doctype html><script>alert(1)</script>')],
  ])('refuses %s', async (_label, bytes) => {
    const request = formRequest((form) => form.append('pancard', new File([bytes], 'card.png', { type: 'image/png' })))
    expectRefusal(await readPanCardUpload(request), 415, PAN_CARD_MESSAGES.wrongType)
  })
})

describe('readPanCardUpload: missing or empty (400)', () => {
  it('refuses an empty file', async () => {
    const request = formRequest((form) => form.append('pancard', new File([], 'pan-card.jpg', { type: 'image/jpeg' })))
    expectRefusal(
      await readPanCardUpload(request),
      400,
      'The file you chose is empty. Choose an image of your PAN card to upload.',
    )
  })

  it('asks for a file when none was chosen (a browser sends an empty part without a file name)', async () => {
    const body = concatBytes(
      multipartHead({ intent: 'upload' }, { name: 'pancard', filename: '', type: 'application/octet-stream' }),
      multipartTail(),
    )
    const result = await readPanCardUpload(rawRequest(body))
    expectRefusal(result, 400, 'Choose an image of your PAN card to upload.')
    expect(result.fields.get('intent')).toBe('upload')
  })

  it('asks for a file when the form has no file field', async () => {
    const result = await readPanCardUpload(formRequest((form) => form.append('intent', 'upload')))
    expectRefusal(result, 400, PAN_CARD_MESSAGES.missing)
    expect(Object.fromEntries(result.fields)).toEqual({ intent: 'upload' })
  })

  it('does not take a text field of the same name for the file', async () => {
    const result = await readPanCardUpload(formRequest((form) => form.append('pancard', 'C:\\fakepath\\pan.jpg')))
    expectRefusal(result, 400, PAN_CARD_MESSAGES.missing)
    expect(result.fields.has('pancard')).toBe(false)
  })

  it('does not take a file from another field', async () => {
    const request = formRequest((form) => form.append('avatar', new File([TINY_PNG], 'me.png', { type: 'image/png' })))
    expectRefusal(await readPanCardUpload(request), 400, PAN_CARD_MESSAGES.missing)
  })

  it('asks for a file when there is no body at all', async () => {
    const request = new Request(UPLOAD_URL, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    })
    expectRefusal(await readPanCardUpload(request), 400, PAN_CARD_MESSAGES.missing)
  })
})

describe('readPanCardUpload: unreadable requests (400, never a throw)', () => {
  const unreadable = (result: PanCardUploadResult) =>
    expectRefusal(result, 400, 'The upload could not be read. Choose the image of your PAN card and try again.')

  it.each([
    ['JSON', 'application/json', '{"pancard":"aGVsbG8="}'],
    ['a URL-encoded form (a <form> without encType)', 'application/x-www-form-urlencoded', 'pancard=pan.jpg'],
    ['multipart without a boundary', 'multipart/form-data', 'whatever'],
    ['multipart/mixed', `multipart/mixed; boundary=${BOUNDARY}`, 'whatever'],
  ])('refuses %s', async (_label, contentType, body) => {
    unreadable(
      await readPanCardUpload(
        new Request(UPLOAD_URL, { method: 'POST', headers: { 'Content-Type': contentType }, body }),
      ),
    )
  })

  it('refuses a request without a Content-Type', async () => {
    unreadable(await readPanCardUpload(new Request(UPLOAD_URL, { method: 'POST', body: new Uint8Array([1, 2, 3]) })))
  })

  it('refuses a body that does not start with the boundary', async () => {
    unreadable(await readPanCardUpload(rawRequest(encoder.encode('this is not multipart at all, just some text'))))
  })

  it('refuses a body with another boundary than the one declared', async () => {
    const body = new TextEncoder().encode(
      '--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--other--\r\n',
    )
    unreadable(await readPanCardUpload(rawRequest(body)))
  })

  it('refuses a body cut off in the middle of the file', async () => {
    const body = multipartBody(jpegOfSize(200_000))
    unreadable(await readPanCardUpload(rawRequest(body.subarray(0, 150_000))))
  })

  it('refuses a body without its closing boundary', async () => {
    const body = concatBytes(
      multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'a.png', type: 'image/png' }),
      TINY_PNG,
    )
    unreadable(await readPanCardUpload(rawRequest(body)))
  })

  it('refuses part headers that never end', async () => {
    const body = encoder.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="pancard"; filename="${'a'.repeat(20_000)}`,
    )
    unreadable(await readPanCardUpload(rawRequest(body)))
  })

  it('refuses a text field that is not UTF-8', async () => {
    const body = concatBytes(
      encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\n`),
      Uint8Array.from([0xff, 0xfe, 0xfd]),
      encoder.encode('\r\n'),
      multipartBody(TINY_PNG, {}),
    )
    unreadable(await readPanCardUpload(rawRequest(body)))
  })

  it(`refuses more than ${PAN_CARD_FORM_MAX_PARTS} parts`, async () => {
    const fields = Object.fromEntries(
      Array.from({ length: PAN_CARD_FORM_MAX_PARTS + 1 }, (_, index) => [`field${index}`, 'x']),
    )
    unreadable(await readPanCardUpload(rawRequest(multipartBody(TINY_PNG, fields))))
  })

  it('refuses a body whose stream fails, as when the client goes away mid-upload', async () => {
    let pulls = 0
    const head = multipartHead({}, { name: 'pancard', filename: 'a.jpg', type: 'image/jpeg' })
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1
        if (pulls === 1) controller.enqueue(head)
        else if (pulls === 2) controller.enqueue(jpegOfSize(1000))
        else controller.error(new Error('aborted'))
      },
    })
    const request = new Request(UPLOAD_URL, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    } as RequestInit)
    unreadable(await readPanCardUpload(request))
  })
})
