import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import Razorpay from 'razorpay'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkoutSignature, isValidWebhookSignature, razorpayGateway } from '~/server/payments/gateway/razorpay.server'
import {
  SANDBOX_KEY_ID,
  SandboxError,
  sandboxSecrets,
  type SandboxGateway,
} from '~/server/payments/gateway/sandbox.server'
import { isSandboxApiInstalled, sandboxGateway, WEBHOOK_DELIVERY_TIMEOUT_MS } from '~/demo/razorpay-sandbox.server'

/** A plain HTTP server on this machine, recording what it receives: the sandbox must leave such calls alone. */
const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = []
const localServer = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
  request.on('end', () => {
    received.push({ url: request.url ?? '', headers: request.headers, body })
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome: 'processed' }))
  })
})
let localUrl: string
beforeAll(async () => {
  await new Promise<void>((resolve) => localServer.listen(0, '127.0.0.1', resolve))
  localUrl = `http://127.0.0.1:${(localServer.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => localServer.close(resolve)))

describe('in production mode', () => {
  // First in this file: nothing has installed the fake API yet.
  it('cannot be created, and intercepts nothing', () => {
    expect(() => sandboxGateway({ DEMO_MODE: false, NODE_ENV: 'production' })).toThrow(/cannot run with DEMO_MODE=0/)
    expect(isSandboxApiInstalled()).toBe(false)
  })
})

describe("the sandbox's fake of Razorpay's API, called by the real SDK client", () => {
  let gateway: SandboxGateway
  /** The SDK itself, to see Razorpay's JSON as the fake sends it. */
  let sdk: InstanceType<typeof Razorpay>
  beforeAll(() => {
    gateway = sandboxGateway()
    sdk = new Razorpay({ key_id: SANDBOX_KEY_ID, key_secret: sandboxSecrets().keySecret })
  })

  it("creates an order and reports it with Razorpay's order entity, moving created, attempted, paid", async () => {
    expect(isSandboxApiInstalled()).toBe(true)
    const order = await gateway.createOrder({ amountPaise: 299_900, receipt: 'p-1', notes: { paymentId: 'p-1' } })
    expect(order).toEqual({
      id: expect.stringMatching(/^order_/),
      amountPaise: 299_900,
      currency: 'INR',
      receipt: 'p-1',
      status: 'created',
    })
    expect(await sdk.orders.fetch(order.id)).toEqual({
      id: order.id,
      entity: 'order',
      amount: 299_900,
      amount_paid: 0,
      amount_due: 299_900,
      currency: 'INR',
      receipt: 'p-1',
      offer_id: null,
      status: 'created',
      attempts: 0,
      notes: { paymentId: 'p-1' },
      created_at: expect.any(Number),
    })

    const failed = gateway.pay(order.id, 'failed')
    expect(await sdk.orders.fetch(order.id)).toMatchObject({ status: 'attempted', attempts: 1, amount_paid: 0 })
    const paid = gateway.pay(order.id)
    expect(await sdk.orders.fetch(order.id)).toMatchObject({
      status: 'paid',
      attempts: 2,
      amount_paid: 299_900,
      amount_due: 0,
    })

    const collection = await sdk.orders.fetchPayments(order.id)
    expect(collection).toMatchObject({ entity: 'collection', count: 2 })
    expect(collection.items).toEqual([
      expect.objectContaining({
        id: failed.razorpay_payment_id,
        entity: 'payment',
        status: 'failed',
        captured: false,
        error_code: 'BAD_REQUEST_ERROR',
        error_reason: 'payment_failed',
      }),
      expect.objectContaining({
        id: paid.razorpay_payment_id,
        entity: 'payment',
        status: 'captured',
        captured: true,
        error_code: null,
        order_id: order.id,
        amount: 299_900,
      }),
    ])
    expect(await gateway.fetchOrderPayments(order.id)).toEqual([
      {
        id: failed.razorpay_payment_id,
        orderId: order.id,
        amountPaise: 299_900,
        currency: 'INR',
        status: 'failed',
        errorDescription: 'Payment failed',
        method: 'card',
      },
      {
        id: paid.razorpay_payment_id,
        orderId: order.id,
        amountPaise: 299_900,
        currency: 'INR',
        status: 'captured',
        errorDescription: null,
        method: 'card',
      },
    ])
    expect(await gateway.fetchPayment(paid.razorpay_payment_id)).toMatchObject({
      status: 'captured',
      orderId: order.id,
    })
    // Empty notes come back as an empty array, as Razorpay sends them.
    const plain = await sdk.orders.create({ amount: 100, currency: 'INR' })
    expect(plain.notes).toEqual([])
  })

  it('refuses what Razorpay refuses, with its HTTP status and error body, which the client turns into final GatewayErrors', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: unknown) => error,
      )

    expect(await refusal(sdk.orders.create({ amount: 99, currency: 'INR' }))).toEqual({
      statusCode: 400,
      error: expect.objectContaining({
        code: 'BAD_REQUEST_ERROR',
        description: 'The amount must be at least INR 1.00.',
        field: 'amount',
        source: 'business',
      }),
    })
    expect(await refusal(sdk.orders.create({ amount: 499.5, currency: 'INR' }))).toMatchObject({
      statusCode: 400,
      error: { description: 'The amount must be an integer.' },
    })
    expect(await refusal(sdk.orders.create({ amount: 100, currency: 'INR', receipt: 'r'.repeat(41) }))).toMatchObject({
      statusCode: 400,
      error: { field: 'receipt' },
    })
    expect(await refusal(sdk.orders.create({ amount: 100, currency: 'INR', customer: 'x' } as never))).toMatchObject({
      statusCode: 400,
      error: { description: 'customer is/are not required and should not be sent' },
    })
    expect(await refusal(sdk.orders.fetch('order_unknown'))).toMatchObject({
      statusCode: 400,
      error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' },
    })
    expect(await refusal(sdk.payments.fetch('pay_unknown'))).toMatchObject({
      statusCode: 400,
      error: { description: 'The id provided does not exist' },
    })
    expect(await refusal(sdk.refunds.fetch('rfnd_1'))).toMatchObject({
      statusCode: 400,
      error: { description: 'The requested URL was not found on the server.' },
    })

    await expect(gateway.createOrder({ amountPaise: 99, receipt: 'p', notes: {} })).rejects.toMatchObject({
      name: 'GatewayError',
      retryable: false,
      statusCode: 400,
      code: 'BAD_REQUEST_ERROR',
      message: 'Razorpay order creation failed with HTTP 400 BAD_REQUEST_ERROR: The amount must be at least INR 1.00.',
    })
    await expect(gateway.fetchPayment('pay_unknown')).rejects.toMatchObject({ statusCode: 400, retryable: false })
  })

  it('checks HTTP Basic auth against the sandbox key', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const wrongSecret = razorpayGateway({
      keyId: SANDBOX_KEY_ID,
      keySecret: 'not-the-sandbox-secret',
      webhookSecret: 'w'.repeat(8),
    })
    await expect(wrongSecret.createOrder({ amountPaise: 100, receipt: 'p', notes: {} })).rejects.toMatchObject({
      name: 'GatewayError',
      statusCode: 401,
      message: expect.stringMatching(/Authentication failed/),
    })
    const unauthenticated = await fetch('https://api.razorpay.com/v1/orders', {
      method: 'POST',
      body: '{"amount":100}',
      headers: { 'content-type': 'application/json' },
    })
    expect(unauthenticated.status).toBe(401)
  })

  it('lets calls to any other host through untouched', async () => {
    const answer = await fetch(`${localUrl}/elsewhere`, { method: 'POST', body: 'hello' })
    expect(await answer.json()).toEqual({ outcome: 'processed' })
    expect(received.at(-1)).toMatchObject({ url: '/elsewhere', body: 'hello' })
  })
})

describe("the sandbox's controls", () => {
  let gateway: SandboxGateway
  beforeAll(() => {
    gateway = sandboxGateway()
  })
  const newOrder = () => gateway.createOrder({ amountPaise: 10_000, receipt: 'p', notes: {} })

  it('signs the checkout fields with the sandbox key secret, and refuses an unknown or already paid order', async () => {
    const order = await newOrder()
    const paid = gateway.pay(order.id)
    expect(paid.razorpay_order_id).toBe(order.id)
    expect(paid.razorpay_signature).toBe(checkoutSignature(order.id, paid.razorpay_payment_id, gateway.keySecret))
    expect(() => gateway.pay(order.id)).toThrow(
      new SandboxError(
        'Your payment has been declined as the order is already paid. Please initiate the payment with a new order.',
        400,
      ),
    )
    expect(() => gateway.pay('order_unknown')).toThrow(SandboxError)
  })

  it('captures a failed payment late, which pays the order; one paid meanwhile by another payment is refunded', async () => {
    const order = await newOrder()
    const lateOne = gateway.pay(order.id, 'failed')
    gateway.capture(lateOne.razorpay_payment_id)
    expect(await gateway.fetchPayment(lateOne.razorpay_payment_id)).toMatchObject({
      status: 'captured',
      errorDescription: null,
    })

    const other = await newOrder()
    const authorised = gateway.pay(other.id, 'authorized')
    gateway.pay(other.id)
    gateway.capture(authorised.razorpay_payment_id)
    expect((await gateway.fetchPayment(authorised.razorpay_payment_id)).status).toBe('refunded')
  })

  it("delivers a signed webhook as Razorpay's servers do and reports the answer", async () => {
    const order = await newOrder()
    const paid = gateway.pay(order.id)
    const delivery = gateway.webhook('order.paid', paid.razorpay_payment_id)
    const answer = await gateway.deliverWebhook(delivery, `${localUrl}/webhooks/razorpay`)
    expect(answer).toEqual({
      event: 'order.paid',
      eventId: delivery.eventId,
      status: 200,
      body: { outcome: 'processed' },
    })
    // Razorpay's limit for an answer.
    expect(WEBHOOK_DELIVERY_TIMEOUT_MS).toBe(5_000)

    const request = received.at(-1)!
    expect(request.url).toBe('/webhooks/razorpay')
    expect(request.body).toBe(delivery.rawBody)
    expect(request.headers['x-razorpay-event-id']).toBe(delivery.eventId)
    expect(
      isValidWebhookSignature(request.body, String(request.headers['x-razorpay-signature']), gateway.webhookSecret),
    ).toBe(true)
    expect(JSON.parse(request.body)).toMatchObject({
      entity: 'event',
      event: 'order.paid',
      contains: ['payment', 'order'],
      payload: {
        payment: { entity: { id: paid.razorpay_payment_id, status: 'captured' } },
        order: { entity: { id: order.id, status: 'paid' } },
      },
    })
  })
})
