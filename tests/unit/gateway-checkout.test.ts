import { describe, expect, it } from 'vitest'
import {
  CHECKOUT_OUTCOME_MESSAGES,
  CHECKOUT_METHODS_CONFIG,
  checkoutMessageTone,
  GATEWAY_ALLOWED_METHODS,
  GATEWAY_HIDDEN_METHODS,
  isGatewayMethodAllowed,
  refusedMethodReason,
  PAYMENT_START_FAILED_MESSAGE,
  PAYMENT_VERIFY_FAILED_MESSAGE,
} from '~/domain/gateway-checkout'

describe('how /pay shows what a checkout came to', () => {
  it('shows a closed checkout as news, and a failure or a refusal as an error', () => {
    expect(checkoutMessageTone(CHECKOUT_OUTCOME_MESSAGES.dismissed)).toBe('info')
    expect(checkoutMessageTone(CHECKOUT_OUTCOME_MESSAGES.failed)).toBe('error')
    expect(checkoutMessageTone(CHECKOUT_OUTCOME_MESSAGES.unverified)).toBe('error')
    expect(checkoutMessageTone(PAYMENT_START_FAILED_MESSAGE)).toBe('error')
    expect(checkoutMessageTone(PAYMENT_VERIFY_FAILED_MESSAGE)).toBe('error')
    expect(checkoutMessageTone('You have already paid for these services.')).toBe('error')
  })
})

describe('the methods the gateway takes', () => {
  it('hides wallets, EMI, pay later and apps on checkout.js, and never a bank, card or UPI method', () => {
    const hidden = CHECKOUT_METHODS_CONFIG.display.hide.map((instrument) => instrument.method)
    expect(hidden).toEqual(expect.arrayContaining(['wallet', 'emi', 'cardless_emi', 'paylater']))
    for (const allowed of GATEWAY_ALLOWED_METHODS) expect(hidden).not.toContain(allowed)
    expect(CHECKOUT_METHODS_CONFIG.display.preferences.show_default_blocks).toBe(true)
  })
})

describe('a capture the gateway reports with its method', () => {
  it('is allowed by card, netbanking or UPI, or with no method reported', () => {
    for (const method of GATEWAY_ALLOWED_METHODS) expect(isGatewayMethodAllowed(method)).toBe(true)
    expect(isGatewayMethodAllowed(null)).toBe(true)
  })

  it('is refused by every hidden method, and by one Razorpay adds later', () => {
    for (const method of GATEWAY_HIDDEN_METHODS) expect(isGatewayMethodAllowed(method)).toBe(false)
    expect(isGatewayMethodAllowed('crypto')).toBe(false)
    expect(isGatewayMethodAllowed('')).toBe(false)
    expect(isGatewayMethodAllowed('CARD')).toBe(false)
  })

  it('says why in words, quoting a method it has no words for, cut short', () => {
    expect(refusedMethodReason('paylater')).toBe(
      'Paid by pay later: our fees are paid only by card, netbanking or UPI, from an account in your name',
    )
    expect(refusedMethodReason('x'.repeat(100))).toContain(`"${'x'.repeat(40)}"`)
  })
})
