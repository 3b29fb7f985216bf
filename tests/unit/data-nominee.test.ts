import { describe, expect, it } from 'vitest'
import { dataNomineeSchema, NOMINEE_UNREACHABLE_MESSAGE, nomineePhone } from '~/domain/data-nominee'

describe('a nominee for data rights', () => {
  it('keeps the name as typed and stores the phone as E.164', () => {
    const parsed = dataNomineeSchema.parse({
      name: '  Meera   D’Souza ',
      relationship: 'Spouse',
      phone: '98765 43210',
      email: '',
    })
    expect(parsed).toEqual({ name: 'Meera D’Souza', relationship: 'Spouse', phone: '+919876543210', email: undefined })
  })

  it('takes an e-mail address alone, lower-cased', () => {
    const parsed = dataNomineeSchema.parse({ name: 'Ravi', relationship: 'Son', email: 'Ravi@Example.in' })
    expect(parsed.email).toBe('ravi@example.in')
    expect(parsed.phone).toBeUndefined()
  })

  it('needs a way to reach the nominee, said on the mobile number field', () => {
    const result = dataNomineeSchema.safeParse({ name: 'Ravi', relationship: 'Son', phone: '', email: '' })
    expect(result.success).toBe(false)
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['phone'], message: NOMINEE_UNREACHABLE_MESSAGE }),
    ])
  })

  it('refuses numbers that are not mobiles, and control characters', () => {
    expect(nomineePhone('0123456789')).toBeNull()
    expect(nomineePhone('+91 91234 56789')).toBe('+919123456789')
    expect(nomineePhone('+44 7700 900123')).toBe('+447700900123')
    const result = dataNomineeSchema.safeParse({ name: 'Ra\u0000vi', relationship: 'Son', email: 'r@example.in' })
    expect(result.error?.issues[0]?.path).toEqual(['name'])
  })

  it('refuses a 500-character name and a long relationship', () => {
    const result = dataNomineeSchema.safeParse({
      name: 'a'.repeat(500),
      relationship: 'b'.repeat(41),
      email: 'r@example.in',
    })
    expect(result.error?.issues.map((issue) => issue.path[0])).toEqual(['name', 'relationship'])
  })
})
