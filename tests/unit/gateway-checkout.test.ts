import { describe, expect, it } from 'vitest'
import {
  CHECKOUT_OUTCOME_MESSAGES,
  checkoutMessageTone,
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
