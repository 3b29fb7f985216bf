import { captureLogLines } from '~/server/operations/logger.server'
import { afterEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import * as otpRequest from '~/routes/api.v1/otp.request'
import * as pendingPayments from '~/routes/api.v1/payments.pending-payments'
import { JSON_BODY_MAX_BYTES, readJsonBody } from '~/server/api/requests.server'
import { prisma } from '~/server/db.server'
import { z } from 'zod'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

type RouteModule = {
  loader?: (args: never) => Promise<Response> | Response
  action?: (args: never) => Promise<Response> | Response
}

const routeModules = import.meta.glob<RouteModule>('../../app/routes/api.v1/*.ts', { eager: true })
const callName = (file: string) => file.replace(/^.*\/api\.v1\//, '').replace(/\.ts$/, '')

/** The existing clients' GET calls (docs/api.md) (and the agreement, mandates and research); every other call is POST. */
const GET_CALLS = new Set([
  'agreement',
  'mandates',
  'research',
  'research.item',
  'users.current-user',
  'services.get-available-services',
  'payments.pending-payments',
  'subscriptions.get-active-subscriptions',
])
const ANY_METHOD = new Set(['not-found'])

const requestFor = (method: string, body?: string) =>
  new Request('http://localhost/api/v1/some-call', {
    method,
    ...(body ? { body, headers: { 'Content-Type': 'application/json' } } : {}),
  })

const UNEXPECTED_ERROR_ANSWER = { message: 'Something went wrong on our side. Please try again in a moment.' }

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the /api/v1 route modules', () => {
  it('include every GET call named here (all others are POST, but for the catch-all)', () => {
    const names = new Set(Object.keys(routeModules).map(callName))
    for (const name of [...GET_CALLS, ...ANY_METHOD]) expect(names.has(name), name).toBe(true)
  })

  for (const [file, module] of Object.entries(routeModules)) {
    const name = callName(file)
    if (ANY_METHOD.has(name)) continue
    const allowed = GET_CALLS.has(name) ? 'GET' : 'POST'
    it(`${name} answers other methods than ${allowed} with 405 JSON and Allow: ${allowed}`, async () => {
      const wrong =
        allowed === 'GET' ? ['POST', 'PUT', 'DELETE', 'OPTIONS'] : ['GET', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']
      for (const method of wrong) {
        // React Router hands GET, HEAD and OPTIONS to the loader, every other method to the action.
        const handler = ['GET', 'HEAD', 'OPTIONS'].includes(method) ? module.loader : module.action
        expect(handler, `${name} must export a handler for ${method}`).toBeTypeOf('function')
        const response = await handler!(
          routeArgs(requestFor(method, ['GET', 'OPTIONS'].includes(method) ? undefined : '{}')),
        )
        expect(response.status, `${method} ${name}`).toBe(405)
        expect(response.headers.get('Allow')).toBe(allowed)
        expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
        expect(await response.json()).toEqual({ message: `Use ${allowed} for this call.` })
      }
    })
  }
})

describe('an unexpected error in an /api/v1 call', () => {
  it('answers 500 JSON without the error text, and logs the error once (a GET call)', async () => {
    const log = captureLogLines()
    onTestFinished(log.stop)
    const failure = new Error('connection terminated unexpectedly: secret detail')
    vi.spyOn(prisma.payment, 'findMany').mockRejectedValueOnce(failure)
    const { cookie } = await signedInUser()

    const response = await pendingPayments.loader(routeArgs(getRequest('/api/v1/payments/pending-payments', cookie)))
    expect(response.status).toBe(500)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual(UNEXPECTED_ERROR_ANSWER)
    expect(errorLines(log)).toEqual([
      expect.objectContaining({ module: 'api', err: expect.objectContaining({ message: failure.message }) }),
    ])
  })

  it('answers 500 JSON and logs once (a POST call)', async () => {
    const log = captureLogLines()
    onTestFinished(log.stop)
    const failure = new TypeError('Cannot read properties of undefined')
    vi.spyOn(prisma.otpChallenge, 'create').mockRejectedValueOnce(failure)

    const response = await otpRequest.action(routeArgs(requestFor('POST', JSON.stringify({ number: '+919812345670' }))))
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual(UNEXPECTED_ERROR_ANSWER)
    expect(errorLines(log)).toEqual([
      expect.objectContaining({
        module: 'api',
        err: expect.objectContaining({ type: 'TypeError', message: failure.message }),
      }),
    ])
  })
})

const errorLines = (log: ReturnType<typeof captureLogLines>) => log.lines().filter((line) => line.level === 'error')

/** A 1 MiB request body of spaces streamed in `chunkBytes` pieces, counting what the reader pulled. */
function largeBody(chunkBytes: number, headers: Record<string, string> = {}) {
  const totalBytes = 1024 * 1024
  const pulled = { bytes: 0 }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      // One chunk per event-loop turn, as from a socket, so timers (and test timeouts) still run.
      await new Promise((resolve) => setImmediate(resolve))
      if (pulled.bytes >= totalBytes) return controller.close()
      pulled.bytes += chunkBytes
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20))
    },
  })
  const request = new Request('http://localhost/api/v1/otp/request', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit)
  return { request, pulled }
}

async function refusal(promise: Promise<unknown>): Promise<Response> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  )
  expect(outcome).toBeInstanceOf(Response)
  return outcome as Response
}

describe('readJsonBody', () => {
  const AnyJson = z.unknown()

  it(`accepts a body of exactly ${JSON_BODY_MAX_BYTES} bytes`, async () => {
    const text = JSON.stringify({ padding: 'x'.repeat(JSON_BODY_MAX_BYTES - '{"padding":""}'.length) })
    expect(new TextEncoder().encode(text).byteLength).toBe(JSON_BODY_MAX_BYTES)
    expect(await readJsonBody(requestFor('POST', text), AnyJson)).toEqual(JSON.parse(text))
  })

  it('refuses a larger body with 413 JSON and closes the connection, having read no more than the limit and a chunk', async () => {
    const chunkBytes = 16 * 1024
    const { request, pulled } = largeBody(chunkBytes)
    const response = await refusal(readJsonBody(request, AnyJson))
    expect(response.status).toBe(413)
    expect(response.headers.get('Connection')).toBe('close')
    expect(await response.json()).toEqual({ message: 'The request body is too large: at most 64 KiB.' })
    // The stream may have buffered one chunk ahead of the reader.
    expect(pulled.bytes).toBeLessThanOrEqual(JSON_BODY_MAX_BYTES + 2 * chunkBytes)
  })

  it('refuses a declared length over the limit without reading the body', async () => {
    const { request, pulled } = largeBody(1024, { 'Content-Length': String(JSON_BODY_MAX_BYTES + 1) })
    const response = await refusal(readJsonBody(request, AnyJson))
    expect(response.status).toBe(413)
    expect(response.headers.get('Connection')).toBe('close')
    // A ReadableStream pulls once on its own to fill its queue; the reader itself took nothing.
    expect(pulled.bytes).toBeLessThanOrEqual(1024)
  })

  it('answers malformed JSON, text that is not UTF-8 and a missing body with 400 JSON', async () => {
    for (const body of ['{"number": ', new Uint8Array([0x22, 0xff, 0xfe, 0x22]), null]) {
      const request = new Request('http://localhost/api/v1/otp/request', { method: 'POST', body })
      const response = await refusal(readJsonBody(request, AnyJson))
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ message: 'The request body must be JSON.' })
    }
  })
})
