import { describe, expect, it } from 'vitest'
import { BulkNoticeFormSchema, bulkNoticeParagraphs, chosenMobileNumbers } from '~/domain/bulk-notice'

describe('the chosen numbers of a notice', () => {
  it('reads a pasted list however the numbers are written, once each, and names what is not a mobile', () => {
    expect(chosenMobileNumbers('98765 43210\n+91 91234-56789, 098765 43210\n\n12345; 5123456789')).toEqual({
      numbers: ['+919876543210', '+919123456789'],
      refused: ['12345', '5123456789'],
    })
  })
})

describe('the notice form', () => {
  const words = { subject: 'A change', body: 'From Monday the reports come at 8 am.' }
  const errorsOf = (form: Record<string, string>) => {
    const parsed = BulkNoticeFormSchema.safeParse(form)
    return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]))
  }

  it('needs the service for its subscribers and at least one good number for chosen customers', () => {
    expect(errorsOf({ audience: 'SERVICE', ...words })).toEqual({ serviceId: 'Choose the service' })
    expect(errorsOf({ audience: 'CHOSEN', phones: ' ', ...words })).toEqual({
      phones: 'Give at least one mobile number',
    })
    expect(errorsOf({ audience: 'CHOSEN', phones: '12345', ...words })).toEqual({
      phones: 'Not a 10-digit Indian mobile number: 12345',
    })
    expect(errorsOf({ audience: 'OPEN', ...words })).toEqual({})
  })

  it('keeps the paragraphs the admin wrote', () => {
    expect(bulkNoticeParagraphs('First line\nsame paragraph\n\n  \nSecond')).toEqual([
      'First line\nsame paragraph',
      'Second',
    ])
  })
})
