import { captureLogLines } from '~/server/operations/logger.server'
import { afterEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import { CONTROL_CHARACTER_MESSAGE } from '~/domain/control-characters'
import * as setDetails from '~/routes/api.v1/users.set-details'
import * as verifyPayment from '~/routes/api.v1/payments.verify-payment'
import * as customersRoute from '~/routes/admin/customers'
import * as customerRoute from '~/routes/admin/customer'
import * as paymentsRoute from '~/routes/admin/payments'
import * as serviceEditRoute from '~/routes/admin/service-edit'
import * as detailsRoute from '~/routes/details'
import * as outboxJsonRoute from '~/demo/outbox.json'
import * as outboxRoute from '~/demo/outbox'
import * as callbackRoute from '~/routes/payments.callback'
import * as cancelRoute from '~/routes/payments.cancel'
import { prisma } from '~/server/db.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'
import { formRequest, getRequest, jsonRequest } from '../support/route-requests'
import { uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// Postgres refuses NUL in text, so a NUL that reaches a query is a 500; the other control
// characters are refused with it. Every text input that reaches the database is a row here.

const NUL = '\u0000'
const CONTROL_CHARACTERS = [NUL, '\u001b', '\u007f']

afterEach(() => {
  vi.restoreAllMocks()
})

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context: { clientIp: '203.0.113.9', cspNonce: '' } }) as never
/** What a loader or action answered, whether it returned or threw it. */
async function answer(call: () => unknown): Promise<{ status: number; body: unknown }> {
  let result: unknown
  try {
    result = await call()
  } catch (thrown) {
    result = thrown
  }
  if (result instanceof Response)
    return {
      status: result.status,
      body: result.headers.get('Content-Type')?.includes('json') ? await result.json() : await result.text(),
    }
  if (result && typeof result === 'object' && 'type' in result && result.type === 'DataWithResponseInit') {
    const { data, init } = result as unknown as { data: unknown; init?: { status?: number } }
    return { status: init?.status ?? 200, body: data }
  }
  return { status: 200, body: result }
}

const profile = { name: 'asha rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCPE1234F' }

describe('a control character in a text input', () => {
  for (const character of CONTROL_CHARACTERS) {
    const shown = JSON.stringify(character)

    it(`${shown} in the details form's e-mail: 400 with the field's message, nothing saved`, async () => {
      const { userId, cookie } = await signedInUser()
      const reply = await answer(() =>
        detailsRoute.action(
          args(formRequest('/details', { ...profile, email: `asha${character}@example.in` }, cookie)),
        ),
      )
      expect(reply.status).toBe(400)
      expect(JSON.stringify(reply.body)).toContain('Enter an e-mail address like name@example.com.')
      expect(await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } })).toEqual({
        email: null,
      })
    })

    it(`${shown} in a JSON string (set-details): 400 {message}, nothing saved`, async () => {
      const { userId, cookie } = await signedInUser()
      for (const body of [
        { ...profile, email: `asha${character}@example.in` },
        { ...profile, name: `asha${character}rao` },
      ]) {
        const reply = await answer(() =>
          setDetails.action(args(jsonRequest('/api/v1/users/set-details', body, cookie))),
        )
        expect(reply.status).toBe(400)
        expect(reply.body).toMatchObject({ message: expect.any(String) })
      }
      expect(
        await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } }),
      ).toEqual({ email: null, name: null })
    })

    it(`${shown} in the order id sent to verify-payment: 400 {message}`, async () => {
      const { cookie } = await signedInUser()
      const razorpayResponse = {
        razorpay_order_id: `order_${character}x`,
        razorpay_payment_id: 'pay_x',
        razorpay_signature: '0'.repeat(64),
      }
      const reply = await answer(() =>
        verifyPayment.action(args(jsonRequest('/api/v1/payments/verify-payment', { razorpayResponse }, cookie))),
      )
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual({ message: CONTROL_CHARACTER_MESSAGE })
    })

    it(`${shown} in the gateway's callback or cancel order id: the usual answers, nothing logged as a failure`, async () => {
      const log = captureLogLines()
      onTestFinished(log.stop)
      const { cookie } = await signedInUser()
      const orderId = `order_${character}x`
      const paid = await answer(() =>
        callbackRoute.action(
          args(
            formRequest('/payments/callback', {
              razorpay_order_id: orderId,
              razorpay_payment_id: 'pay_x',
              razorpay_signature: '0'.repeat(64),
            }),
          ),
        ),
      )
      const failed = await answer(() =>
        callbackRoute.action(
          args(
            formRequest('/payments/callback', {
              'error[code]': 'BAD_REQUEST_ERROR',
              'error[metadata]': JSON.stringify({ order_id: orderId, payment_id: 'pay_x' }),
            }),
          ),
        ),
      )
      const cancelled = await answer(() =>
        cancelRoute.loader(args(getRequest(`/payments/cancel?order=${encodeURIComponent(orderId)}`, cookie))),
      )
      expect([paid.status, failed.status, cancelled.status]).toEqual([303, 303, 303])
      expect(log.lines().filter((line) => line.level === 'error')).toEqual([])
    })

    it(`${shown} in the admin customer search: 400 with a message`, async () => {
      const { cookie } = await signedInUser({ role: 'ADMIN' })
      const reply = await answer(() =>
        customersRoute.loader(args(getRequest(`/admin/customers?q=${encodeURIComponent(`as${character}ha`)}`, cookie))),
      )
      expect(reply.status).toBe(400)
      expect(JSON.stringify(reply.body)).toContain(CONTROL_CHARACTER_MESSAGE)
    })

    it(`${shown} in the outbox's "to": 400`, async () => {
      const json = await answer(() =>
        outboxJsonRoute.loader(args(getRequest(`/dev/outbox.json?to=${encodeURIComponent(`+91${character}1`)}`))),
      )
      expect(json).toEqual({ status: 400, body: { message: CONTROL_CHARACTER_MESSAGE } })
      const page = await answer(() =>
        outboxRoute.loader(args(getRequest(`/dev/outbox?to=${encodeURIComponent(`+91${character}1`)}`))),
      )
      expect(page.status).toBe(400)
    })

    it(`${shown} in an admin's service name or description: 400 with the field's message, nothing saved`, async () => {
      const { cookie } = await signedInUser({ role: 'ADMIN' })
      const before = await prisma.service.count()
      for (const fields of [
        { name: `Equity${character}`, description: 'Ideas', price: '2999', durationDays: '30' },
        { name: 'Equity plus', description: `Ideas${character}`, price: '2999', durationDays: '30' },
      ]) {
        const reply = await answer(() =>
          serviceEditRoute.action(args(formRequest('/admin/services/new', fields, cookie))),
        )
        expect(reply.status).toBe(400)
        expect(JSON.stringify(reply.body)).toContain(CONTROL_CHARACTER_MESSAGE)
      }
      expect(await prisma.service.count()).toBe(before)
    })

    it(`${shown} in a grant reason or a rejection reason: 400 with the field's message, nothing written`, async () => {
      const { cookie } = await signedInUser({ role: 'ADMIN' })
      const customer = await createUser()
      const service = await createService('Equity', 299_900, 30)
      const granted = await answer(() =>
        customerRoute.action(
          args(
            formRequest(
              `/admin/customers/${customer}`,
              {
                serviceId: service.id,
                durationDays: '30',
                reason: `goodwill${character}`,
              },
              cookie,
            ),
            { userId: customer },
          ),
        ),
      )
      expect(granted.status).toBe(400)
      expect(JSON.stringify(granted.body)).toContain(CONTROL_CHARACTER_MESSAGE)
      expect(await prisma.subscription.count({ where: { userId: customer } })).toBe(0)

      const payment = await createPaymentRow(customer, [cartItemOf(service)], { method: 'MANUAL' })
      const rejected = await answer(() =>
        paymentsRoute.action(
          args(
            formRequest(
              '/admin/payments',
              {
                intent: 'reject',
                paymentId: payment.id,
                reason: `no such transfer${character}`,
              },
              cookie,
            ),
          ),
        ),
      )
      expect(rejected.status).toBe(400)
      expect(JSON.stringify(rejected.body)).toContain(CONTROL_CHARACTER_MESSAGE)
      expect(await prisma.payment.findUniqueOrThrow({ where: { id: payment.id }, select: { status: true } })).toEqual({
        status: payment.status,
      })
    })
  }

  it('a multi-line field keeps its line breaks and tabs', async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const customer = await createUser()
    const service = await createService('Equity', 299_900, 30)
    const granted = await answer(() =>
      customerRoute.action(
        args(
          formRequest(
            `/admin/customers/${customer}`,
            {
              serviceId: service.id,
              durationDays: '30',
              reason: 'goodwill\r\nafter\tthe outage',
            },
            cookie,
          ),
          { userId: customer },
        ),
      ),
    )
    expect(granted.status).toBe(200)
  })
})

describe('an e-mail address', () => {
  const tooLong = `${'a'.repeat(65_000)}@example.in`
  for (const [email, message] of [
    ['"><img/src=x/onerror=alert(1)>@x.co', 'Enter an e-mail address like name@example.com.'],
    [tooLong, 'Your e-mail address can have at most 254 characters.'],
  ] as const) {
    it(`${email.slice(0, 24)} (${email.length} characters) is refused by the details form and the JSON API, nothing saved`, async () => {
      const { userId, cookie } = await signedInUser()
      const page = await answer(() => detailsRoute.action(args(formRequest('/details', { ...profile, email }, cookie))))
      expect(page.status).toBe(400)
      expect(JSON.stringify(page.body)).toContain(message)
      const api = await answer(() =>
        setDetails.action(args(jsonRequest('/api/v1/users/set-details', { ...profile, email }, cookie))),
      )
      expect(api).toEqual({
        status: 400,
        body: { message: 'Some fields are not valid.', errors: { email: [message] } },
      })
      expect(await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } })).toEqual({
        email: null,
      })
    })
  }
})

describe('a redirectTo that is not plain ASCII', () => {
  for (const [target, expected] of [
    ['/%E2%98%83', '/%E2%98%83'],
    ['/pay?x=%E2%98%83', '/pay?x=%E2%98%83'],
    ['/%7F', '/'],
    ['/%00', '/'],
    ['//evil.example', '/'],
  ] as const) {
    it(`${target} is followed encoded, or falls back to /`, async () => {
      const complete = await signedInUser()
      await prisma.user.update({
        where: { id: complete.userId },
        data: {
          name: profile.name,
          email: profile.email,
          pan: uniquePan(),
          dateOfBirth: new Date('2001-05-17'),
          panCardKey: 'k',
          agreementAcceptedAt: new Date(),
        },
      })
      const reply = await detailsRoute
        .loader(args(getRequest(`/details?redirectTo=${target}`, complete.cookie)))
        .catch((thrown: unknown) => thrown)
      expect(reply).toBeInstanceOf(Response)
      expect((reply as Response).headers.get('Location')).toBe(expected)
    })
  }
})
