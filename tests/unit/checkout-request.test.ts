import { describe, expect, it } from 'vitest'
import {
  cartServiceIds,
  CheckoutAnswerSchema,
  CheckoutRequestSchema,
  failedOrderId,
  failureReason,
} from '~/domain/checkout-request'

describe("the API clients' cart text", () => {
  it('reads ids from a list of ids, of { _id } and of cart entries { _id, service: { _id } }', () => {
    expect(cartServiceIds('["a","b"]')).toEqual(['a', 'b'])
    expect(cartServiceIds('[{"_id":"a"},{"_id":"b"}]')).toEqual(['a', 'b'])
    expect(cartServiceIds('[{"_id":"x","service":{"_id":"a","price":1}}]')).toEqual(['a'])
    expect(cartServiceIds('[]')).toEqual([])
  })

  it('refuses anything else', () => {
    for (const text of [
      '',
      'nope',
      '{"_id":"a"}',
      '[1]',
      '[{"service":{}}]',
      '[null]',
      JSON.stringify(Array(51).fill('a')),
    ]) {
      expect(cartServiceIds(text), text).toBeNull()
    }
  })

  it("parses the existing clients' body, cart ids out of notes.cart", () => {
    const body = {
      amount: 2999,
      currency: 'INR',
      receipt: 'ABCPE1234F',
      notes: { number: '+91', details: '{}', cart: '["a"]' },
    }
    expect(CheckoutRequestSchema.parse(body)).toMatchObject({ amount: 2999, notes: { cart: ['a'] } })
    expect(CheckoutRequestSchema.safeParse({ ...body, notes: { cart: 'x' } }).success).toBe(false)
    expect(CheckoutRequestSchema.safeParse({ ...body, currency: 'USD' }).success).toBe(false)
    expect(CheckoutRequestSchema.safeParse({ ...body, amount: 0 }).success).toBe(false)
  })
})

describe('the checkout failure payload', () => {
  it('finds the order in the error object or the whole response', () => {
    expect(failedOrderId({ description: 'Declined', metadata: { order_id: 'order_1', payment_id: 'pay_1' } })).toBe(
      'order_1',
    )
    expect(failedOrderId({ error: { metadata: { order_id: 'order_2' } } })).toBe('order_2')
    expect(failedOrderId({ metadata: {} })).toBeNull()
    expect(failedOrderId(null)).toBeNull()
    expect(failureReason({ error: { description: 'Declined by bank' } })).toBe('Declined by bank')
    expect(failureReason({})).toBe('Payment failed')
  })
})

describe('CheckoutAnswerSchema', () => {
  const answer = { razorpay_order_id: 'order_1', razorpay_payment_id: 'pay_1', razorpay_signature: 'ab'.repeat(32) }
  it('reads the three signed fields, whichever way they arrive, and nothing else', () => {
    expect(CheckoutAnswerSchema.parse({ ...answer, intent: 'verify' })).toEqual(answer)
    expect(CheckoutAnswerSchema.safeParse({ ...answer, razorpay_signature: '' }).success).toBe(false)
    expect(CheckoutAnswerSchema.safeParse({ ...answer, razorpay_order_id: 'order_1\u0000' }).success).toBe(false)
    expect(CheckoutAnswerSchema.safeParse({ razorpay_payment_id: 'pay_1' }).success).toBe(false)
  })
})
