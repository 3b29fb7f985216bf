import { describe, expect, it } from 'vitest'
import {
  BankReferenceFormSchema,
  ManualPaymentFormSchema,
  parseOptionalUtr,
  UTR_MESSAGE,
} from '~/domain/bank-reference'

describe('parseOptionalUtr', () => {
  it('takes NEFT, RTGS and IMPS/UPI references as the bank shows them, spaces removed and upper-cased', () => {
    expect(parseOptionalUtr('sbin 1234 5678 9012')).toEqual({ ok: true, utr: 'SBIN123456789012' })
    expect(parseOptionalUtr('HDFCR52026112400012345')).toEqual({ ok: true, utr: 'HDFCR52026112400012345' })
    expect(parseOptionalUtr('432109876543')).toEqual({ ok: true, utr: '432109876543' })
  })

  it('treats blank as not given', () => {
    expect(parseOptionalUtr('')).toEqual({ ok: true, utr: null })
    expect(parseOptionalUtr('   ')).toEqual({ ok: true, utr: null })
    expect(parseOptionalUtr(null)).toEqual({ ok: true, utr: null })
  })

  it('refuses too short, too long and punctuation, with one message', () => {
    for (const bad of ['12345', 'A'.repeat(23), 'UTR-123456', '<script>']) {
      expect(parseOptionalUtr(bad)).toEqual({ ok: false, message: UTR_MESSAGE })
    }
  })
})

describe('the UTR forms', () => {
  const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.error?.issues.map((issue) => issue.message) ?? []

  it('/subscriptions needs a reference to save: blank is its own message, a malformed one the UTR message', () => {
    expect(messages(BankReferenceFormSchema.safeParse({ paymentId: 'p', utr: '   ' }))).toEqual([
      'Enter the bank reference (UTR) to save it.',
    ])
    expect(messages(BankReferenceFormSchema.safeParse({ paymentId: 'p', utr: '12' }))).toEqual([UTR_MESSAGE])
    expect(BankReferenceFormSchema.parse({ paymentId: 'p', utr: 'sbin 1234 5678 9012' }).utr).toBe('SBIN123456789012')
  })

  it("/pay's manual claim takes a blank reference as not given", () => {
    expect(ManualPaymentFormSchema.parse({ intent: 'manual', utr: '  ' }).utr).toBeUndefined()
    expect(ManualPaymentFormSchema.parse({ intent: 'manual' }).utr).toBeUndefined()
    expect(ManualPaymentFormSchema.parse({ intent: 'manual', utr: 'utr12 3456' }).utr).toBe('UTR123456')
    expect(messages(ManualPaymentFormSchema.safeParse({ intent: 'manual', utr: 'UTR-12' }))).toEqual([UTR_MESSAGE])
  })
})
