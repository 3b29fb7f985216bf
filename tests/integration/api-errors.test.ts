import { afterEach, describe, expect, it, vi } from 'vitest'
import * as otpRequest from '~/routes/api.v1/otp.request'
import * as pendingPayments from '~/routes/api.v1/payments.pending-payments'
import { prisma } from '~/server/db.server'
import { createSession } from '~/server/session.server'
import { createUser } from '../support/payment-fixtures'

type RouteModule = { loader?: (args: never) => Promise<Response> | Response; action?: (args: never) => Promise<Response> | Response }

const routeModules = import.meta.glob<RouteModule>('../../app/routes/api.v1/*.ts', { eager: true })
const callName = (file: string) => file.replace(/^.*\/api\.v1\//, '').replace(/\.ts$/, '')

/** SPEC section 7's GET calls (and GET /api/v1/agreement); every other call is POST. */
const GET_CALLS = new Set([
  'agreement',
  'users.current-user',
  'services.get-available-services',
  'payments.pending-payments',
  'subscriptions.get-active-subscriptions',
])
const ANY_METHOD = new Set(['not-found'])

const args = (request: Request) => ({ request, params: {}, context: { clientIp: '127.0.0.1', cspNonce: '' } }) as never
const requestFor = (method: string, body?: string) =>
  new Request('http://localhost/api/v1/some-call', { method, ...(body ? { body, headers: { 'Content-Type': 'application/json' } } : {}) })

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
      const wrong = allowed === 'GET' ? ['POST', 'PUT', 'DELETE', 'OPTIONS'] : ['GET', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']
      for (const method of wrong) {
        // React Router hands GET, HEAD and OPTIONS to the loader, every other method to the action.
        const handler = ['GET', 'HEAD', 'OPTIONS'].includes(method) ? module.loader : module.action
        expect(handler, `${name} must export a handler for ${method}`).toBeTypeOf('function')
        const response = await handler!(args(requestFor(method, ['GET', 'OPTIONS'].includes(method) ? undefined : '{}')))
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
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const failure = new Error('connection terminated unexpectedly: secret detail')
    vi.spyOn(prisma.payment, 'findMany').mockRejectedValueOnce(failure)
    const cookie = (await createSession(await createUser())).split(';')[0]!

    const response = await pendingPayments.loader(args(new Request('http://localhost/api/v1/payments/pending-payments', { headers: { Cookie: cookie } })))
    expect(response.status).toBe(500)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual(UNEXPECTED_ERROR_ANSWER)
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]).toContain(failure)
  })

  it('answers 500 JSON and logs once (a POST call)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const failure = new TypeError('Cannot read properties of undefined')
    vi.spyOn(prisma.otpChallenge, 'create').mockRejectedValueOnce(failure)

    const response = await otpRequest.action(args(requestFor('POST', JSON.stringify({ number: '+919812345670' }))))
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual(UNEXPECTED_ERROR_ANSWER)
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]).toContain(failure)
  })
})
