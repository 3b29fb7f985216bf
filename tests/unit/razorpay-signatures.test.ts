import { describe, expect, it } from 'vitest'
import { assertSandboxAllowed } from '~/server/payments/gateway/sandbox.server'
import {
  checkoutSignature,
  GATEWAY_TIMEOUT_MS,
  isValidCheckoutSignature,
  isValidWebhookSignature,
  toGatewayError,
  webhookSignature,
} from '~/server/payments/gateway/razorpay.server'

// Vectors from Razorpay's SDK tests (github.com/razorpay/razorpay-node, test/utils/razorpay-utils.spec.js),
// recomputed with node:crypto.
const KEY_SECRET = 'EnLs21M47BllR3X8PSFtjtbd'
const ORDER_ID = 'order_IEIaMR65cu6nz3'
const PAYMENT_ID = 'pay_IH4NVgf4Dreq1l'
const CHECKOUT_SIGNATURE = '0d4e745a1838664ad6c9c9902212a32d627d68e917290b0ad5f08ff4561bc50f'
const WEBHOOK_SECRET = '123456'
const WEBHOOK_BODY = '{"a":1,"b":2,"c":{"d":3}}'
const WEBHOOK_SIGNATURE = '2fe04e22977002e6c7cb553adab8b460cb9e2a4970d5953cb27a8472752e3bbc'

describe('checkout signature', () => {
  it('is HMAC-SHA256 of "order_id|payment_id" with the key secret', () => {
    expect(checkoutSignature(ORDER_ID, PAYMENT_ID, KEY_SECRET)).toBe(CHECKOUT_SIGNATURE)
    expect(
      isValidCheckoutSignature({ orderId: ORDER_ID, paymentId: PAYMENT_ID, signature: CHECKOUT_SIGNATURE }, KEY_SECRET),
    ).toBe(true)
  })

  it('refuses the reversed order, another secret, a tampered, missing or truncated signature', () => {
    const valid = { orderId: ORDER_ID, paymentId: PAYMENT_ID, signature: CHECKOUT_SIGNATURE }
    expect(
      isValidCheckoutSignature({ orderId: PAYMENT_ID, paymentId: ORDER_ID, signature: CHECKOUT_SIGNATURE }, KEY_SECRET),
    ).toBe(false)
    expect(isValidCheckoutSignature(valid, 'another-secret')).toBe(false)
    expect(isValidCheckoutSignature({ ...valid, signature: CHECKOUT_SIGNATURE.replace(/.$/, '0') }, KEY_SECRET)).toBe(
      false,
    )
    expect(isValidCheckoutSignature({ ...valid, signature: CHECKOUT_SIGNATURE.slice(0, 10) }, KEY_SECRET)).toBe(false)
    expect(isValidCheckoutSignature({ ...valid, signature: '' }, KEY_SECRET)).toBe(false)
    expect(isValidCheckoutSignature({ ...valid, signature: undefined }, KEY_SECRET)).toBe(false)
    expect(isValidCheckoutSignature({ ...valid, signature: null }, KEY_SECRET)).toBe(false)
    expect(isValidCheckoutSignature(valid, '')).toBe(false)
  })
})

describe('webhook signature', () => {
  it('is HMAC-SHA256 of the raw body with the webhook secret', () => {
    expect(webhookSignature(WEBHOOK_BODY, WEBHOOK_SECRET)).toBe(WEBHOOK_SIGNATURE)
    expect(webhookSignature(Buffer.from(WEBHOOK_BODY), WEBHOOK_SECRET)).toBe(WEBHOOK_SIGNATURE)
    expect(isValidWebhookSignature(WEBHOOK_BODY, WEBHOOK_SIGNATURE, WEBHOOK_SECRET)).toBe(true)
  })

  it('fails on a re-serialised body, another secret or a missing header', () => {
    expect(isValidWebhookSignature('{"a": 1, "b": 2, "c": {"d": 3}}', WEBHOOK_SIGNATURE, WEBHOOK_SECRET)).toBe(false)
    expect(isValidWebhookSignature(WEBHOOK_BODY, WEBHOOK_SIGNATURE, 'other')).toBe(false)
    expect(isValidWebhookSignature(WEBHOOK_BODY, null, WEBHOOK_SECRET)).toBe(false)
  })
})

describe('gateway errors', () => {
  it('turns the SDK plain-object API error into a GatewayError with status, code and description', () => {
    const error = toGatewayError('order creation', {
      statusCode: 400,
      error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be an integer.' },
    })
    expect(error).toMatchObject({ name: 'GatewayError', retryable: false, statusCode: 400, code: 'BAD_REQUEST_ERROR' })
    expect(error.message).toBe(
      'Razorpay order creation failed with HTTP 400 BAD_REQUEST_ERROR: The amount must be an integer.',
    )
    expect(toGatewayError('x', { statusCode: 502, error: { code: 'SERVER_ERROR' } }).retryable).toBe(true)
    expect(toGatewayError('x', { statusCode: 429, error: { code: 'TOO_MANY' } }).retryable).toBe(true)
  })

  it('reports the SDK TypeError of a lost network error as retryable', () => {
    const error = toGatewayError(
      'order creation',
      new TypeError("Cannot read properties of undefined (reading 'status')"),
    )
    expect(error.retryable).toBe(true)
    expect(error.message).toMatch(/no answer from the gateway/)
  })

  it(`times out after GATEWAY_TIMEOUT_MS (15 s)`, () => {
    expect(GATEWAY_TIMEOUT_MS).toBe(15_000)
  })
})

describe('sandbox gateway', () => {
  it('refuses production mode and allows demo mode and tests', () => {
    expect(() => assertSandboxAllowed({ DEMO_MODE: false, NODE_ENV: 'production' })).toThrow(
      /sandbox payment gateway cannot run with DEMO_MODE=0/,
    )
    expect(() => assertSandboxAllowed({ DEMO_MODE: false, NODE_ENV: 'development' })).toThrow()
    expect(() => assertSandboxAllowed({ DEMO_MODE: true, NODE_ENV: 'production' })).not.toThrow()
    expect(() => assertSandboxAllowed({ DEMO_MODE: false, NODE_ENV: 'test' })).not.toThrow()
  })
})
