import { describe, expect, it } from 'vitest'
import { enumWords } from '~/domain/enum-words'

describe('enum words', () => {
  it.each([
    ['PAID', 'paid'],
    ['PENDING_VERIFICATION', 'pending verification'],
    ['CONSENT_STATEMENT', 'consent statement'],
    ['A_B_C', 'a b c'],
  ])('says %s as %j', (value, words) => {
    expect(enumWords(value)).toBe(words)
  })

  it('says nothing for no value', () => {
    expect(enumWords(null)).toBe('')
    expect(enumWords('')).toBe('')
  })
})
