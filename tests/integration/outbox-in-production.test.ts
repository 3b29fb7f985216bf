import { describe, expect, it } from 'vitest'
import { E2E_BUSINESS_ENV } from '../fixtures/business-details'

describe('the dev outbox in a deployment (DEMO_MODE=0)', () => {
  it('answers 404, as a page and as JSON', async () => {
    // A deployment sets its business details too (the payment modules read them: GST, invoices).
    Object.assign(process.env, E2E_BUSINESS_ENV, {
      NODE_ENV: 'production',
      DEMO_MODE: '0',
      SESSION_SECRET: 'k7Qp2vX9mLw4Rt8ZbN3cYh6JdF1sGe5U',
      RAZORPAY_KEY_ID: 'rzp_live_abc',
      RAZORPAY_KEY_SECRET: 'secret-secret',
      RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
      MSG91_AUTH_KEY: 'auth-key-123',
      MSG91_TEMPLATE_ID: 'tmpl',
      SMTP_URL: 'smtp://localhost:2525',
      MAIL_FROM: 'store@example.in',
      KYC_PROVIDER: 'http',
      KYC_KRA_URL: 'http://127.0.0.1:9',
      KYC_KRA_API_KEY: 'kra-api-key',
      PAN_ENCRYPTION_KEY: 'EpurNXIXXGywshGmQXbJkyzMWehqZhlKRKZLN6fxUU8=',
      PAN_LOOKUP_KEY: '6HSSGbHTSgwsqI3cA/w4PPveW25bWPZVLOKSBxeWTMw=',
      RESEARCH_SIGNING_KEY: 'q1XbV0yN7cJ2kP9sW4tZ8mR6hL3fD5gA0uE1iO7wYxQ=',
    })
    const page = await import('~/demo/outbox')
    const json = await import('~/demo/outbox.json')
    const args = {
      request: new Request('http://localhost/dev/outbox.json?to=%2B919876543210'),
      params: {},
      context: {},
    } as never

    const thrown = await page.loader(args).catch((error: unknown) => error)
    expect(thrown).toMatchObject({ init: { status: 404 } })
    expect((await json.loader(args)).status).toBe(404)
  })

  it('has no sandbox checkout either: /dev/sandbox/pay answers 404', async () => {
    const sandbox = await import('~/demo/sandbox.pay')
    const request = new Request('http://localhost/dev/sandbox/pay', {
      method: 'POST',
      body: JSON.stringify({ orderId: 'order_x' }),
    })
    const response = await sandbox.action({ request, params: {}, context: {} } as never)
    expect(response.status).toBe(404)
  })

  it('has no stand-in hosted checkout or checkout.js either: both answer 404', async () => {
    const page = await import('~/demo/sandbox.checkout')
    const script = await import('~/demo/sandbox.checkout-script')
    const form = new URLSearchParams({
      order_id: 'order_x',
      callback_url: 'http://localhost/payments/callback',
      cancel_url: 'http://localhost/payments/cancel',
    })
    const request = new Request('http://localhost/dev/sandbox/checkout', { method: 'POST', body: form })
    expect(
      await page.action({ request, params: {}, context: {} } as never).catch((error: unknown) => error),
    ).toMatchObject({ init: { status: 404 } })
    expect(await page.loader().catch((error: unknown) => error)).toMatchObject({ init: { status: 404 } })
    expect((await script.loader()).status).toBe(404)
  })

  it("uses the real gateway and never installs the sandbox's fake API", async () => {
    const { paymentGateway, demoSandbox } = await import('~/server/payments/gateway/choice.server')
    expect(paymentGateway()).toMatchObject({ name: 'razorpay', keyId: 'rzp_live_abc' })
    expect(await demoSandbox()).toBeNull()
    // The fake API keeps its state here once installed (app/demo/razorpay-sandbox.server.ts).
    expect((globalThis as { razorpaySandbox?: unknown }).razorpaySandbox).toBeUndefined()
    const { sandboxGateway } = await import('~/demo/razorpay-sandbox.server')
    expect(() => sandboxGateway()).toThrow(/cannot run with DEMO_MODE=0/)
    expect((globalThis as { razorpaySandbox?: unknown }).razorpaySandbox).toBeUndefined()
  })
})
