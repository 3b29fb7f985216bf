import { describe, expect, it } from 'vitest'
import { ComplaintFormSchema, ComplaintStepSchema } from '~/domain/complaint-forms'
import {
  canMoveComplaint,
  complaintDueOn,
  complaintReference,
  complaintUrgency,
  COMPLAINT_TEXT_TOO_LONG,
  isIndiaBusinessDay,
  parseComplaintContact,
  SAME_COMPLAINT_WINDOW_MS,
} from '~/domain/complaints'
import { nationalMobileNumber } from '~/domain/sign-in'

describe('complaint due dates', () => {
  it('gives a service deficiency 7 business days, the day received not counted, across a weekend', () => {
    // Friday 27 November 2026: Mon 30 Nov to Fri 4 Dec are five, Mon 7 and Tue 8 Dec the sixth and seventh.
    expect(complaintDueOn('SERVICE_DEFICIENCY', '2026-11-27', [])).toBe('2026-12-08')
    // Received on a Saturday: the count starts on Monday all the same.
    expect(complaintDueOn('SERVICE_DEFICIENCY', '2026-11-28', [])).toBe('2026-12-08')
  })

  it('skips a listed holiday', () => {
    expect(complaintDueOn('SERVICE_DEFICIENCY', '2026-12-24', [])).toBe('2027-01-04')
    expect(complaintDueOn('SERVICE_DEFICIENCY', '2026-12-24', ['2026-12-25'])).toBe('2027-01-05')
    expect(isIndiaBusinessDay('2026-12-25', ['2026-12-25'])).toBe(false)
    expect(isIndiaBusinessDay('2026-12-26', [])).toBe(false)
    expect(isIndiaBusinessDay('2026-12-24', ['2026-12-25'])).toBe(true)
  })

  it('gives everything else 21 calendar days, weekends and holidays included', () => {
    expect(complaintDueOn('PAYMENT_OR_REFUND', '2026-11-26', ['2026-12-01'])).toBe('2026-12-17')
    expect(complaintDueOn('OTHER', '2026-12-20', [])).toBe('2027-01-10')
  })

  it('says what is overdue and what is due within 3 days', () => {
    expect(complaintUrgency('2026-11-25', '2026-11-26')).toBe('overdue')
    expect(complaintUrgency('2026-11-26', '2026-11-26')).toBe('due-soon')
    expect(complaintUrgency('2026-11-29', '2026-11-26')).toBe('due-soon')
    expect(complaintUrgency('2026-11-30', '2026-11-26')).toBeNull()
  })
})

describe('complaint rules', () => {
  it('numbers complaints CMP-year-sequence', () => {
    expect(complaintReference(2026, 123)).toBe('CMP-2026-000123')
  })

  it('moves forwards only, and a closed complaint stays closed', () => {
    expect(canMoveComplaint('RECEIVED', 'ACKNOWLEDGED')).toBe(true)
    expect(canMoveComplaint('ANSWERED', 'ANSWERED')).toBe(true)
    expect(canMoveComplaint('RESOLVED', 'ANSWERED')).toBe(false)
    expect(canMoveComplaint('CLOSED', 'RESOLVED')).toBe(false)
    expect(canMoveComplaint('RECEIVED', 'CLOSED')).toBe(false)
  })

  it('needs the text sent to the complainant for an answer or a resolution', () => {
    expect(ComplaintStepSchema.safeParse({ status: 'ANSWERED', version: '0' }).success).toBe(false)
    expect(ComplaintStepSchema.safeParse({ status: 'ACKNOWLEDGED', version: '0' }).success).toBe(true)
    expect(ComplaintStepSchema.safeParse({ status: 'RESOLVED', message: 'Refunded.', version: '2' }).success).toBe(true)
  })

  it('takes the same text from the same person within 10 minutes as the complaint already filed', () => {
    expect(SAME_COMPLAINT_WINDOW_MS).toBe(10 * 60 * 1000)
  })

  it('refuses a text over 5,000 characters with a message', () => {
    const parsed = ComplaintFormSchema.safeParse({ category: 'OTHER', text: 'x'.repeat(60 * 1024) })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]?.message).toBe(COMPLAINT_TEXT_TOO_LONG)
    expect(ComplaintFormSchema.parse({ category: 'CONDUCT', text: ' Rude. ', impersonation: 'on' })).toEqual({
      category: 'CONDUCT',
      text: 'Rude.',
      impersonation: true,
    })
  })

  it('reads a visitor contact as an Indian mobile number or an e-mail address', () => {
    const national = (written: string) => nationalMobileNumber(written, '91')
    expect(parseComplaintContact('+91 98765 43210', national)).toEqual({ kind: 'phone', phone: '+919876543210' })
    expect(parseComplaintContact(' Asha@Example.in ', national)).toEqual({ kind: 'email', email: 'asha@example.in' })
    expect(parseComplaintContact('12345', national)).toBeNull()
    expect(parseComplaintContact('asha@', national)).toBeNull()
  })
})

describe('control characters', () => {
  it('are refused in a complaint and in a contact', () => {
    expect(ComplaintFormSchema.safeParse({ category: 'OTHER', text: 'a\u0000b' }).success).toBe(false)
    expect(ComplaintFormSchema.safeParse({ category: 'OTHER', text: 'line one\nline two' }).success).toBe(true)
    expect(parseComplaintContact('a\u0000@example.in', (written) => nationalMobileNumber(written, '91'))).toBeNull()
  })
})
