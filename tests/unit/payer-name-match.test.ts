import { describe, expect, it } from 'vitest'
import { nameWords, payerNameCheck, payerNameMatches } from '~/domain/payer-name-match'

describe('nameWords', () => {
  it('lower-cases, turns punctuation into spaces and drops titles', () => {
    expect(nameWords('  Mr. R.K.  SHARMA ')).toEqual(['r', 'k', 'sharma'])
    expect(nameWords("Smt D'Souza-Pinto")).toEqual(['d', 'souza', 'pinto'])
  })
})

describe('payerNameMatches', () => {
  const kyc = 'Ravi Kumar Sharma'

  it('matches the same name whatever the case, spacing, punctuation, titles or word order', () => {
    for (const payer of ['RAVI KUMAR SHARMA', 'ravi  kumar sharma', 'Mr. Ravi Kumar Sharma', 'SHARMA RAVI KUMAR']) {
      expect(payerNameMatches(payer, kyc), payer).toBe(true)
    }
  })

  it('lets an initial stand for a word it begins, and a left-out middle name pass', () => {
    for (const payer of ['R K SHARMA', 'R.K. Sharma', 'Ravi K Sharma', 'SHARMA RAVI K', 'Ravi Sharma']) {
      expect(payerNameMatches(payer, kyc), payer).toBe(true)
    }
    expect(payerNameMatches('Ravi Kumar Sharma', 'R K Sharma')).toBe(true)
  })

  it("refuses another person's name, a wrong initial, initials alone and a surname alone", () => {
    for (const payer of ['Priya Sharma', 'S K Sharma', 'R K S', 'Sharma', 'Ravi Kumar Verma', 'Sharma Enterprises']) {
      expect(payerNameMatches(payer, kyc), payer).toBe(false)
    }
  })

  it('refuses an empty name on either side', () => {
    expect(payerNameMatches('', kyc)).toBe(false)
    expect(payerNameMatches('Mr.', kyc)).toBe(false)
    expect(payerNameMatches('Ravi Sharma', '')).toBe(false)
  })

  it('matches one-word names only when they are the same word', () => {
    expect(payerNameMatches('ANITHA', 'Anitha')).toBe(true)
    expect(payerNameMatches('A', 'Anitha')).toBe(false)
  })
})

describe('payerNameCheck', () => {
  it('is MATCH or MISMATCH, and MISMATCH when the customer has no KYC name', () => {
    expect(payerNameCheck('R K Sharma', 'Ravi Kumar Sharma')).toBe('MATCH')
    expect(payerNameCheck('Priya Sharma', 'Ravi Kumar Sharma')).toBe('MISMATCH')
    expect(payerNameCheck('Priya Sharma', null)).toBe('MISMATCH')
  })
})
