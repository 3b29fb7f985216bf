import { describe, expect, it } from 'vitest'
import {
  adultBirthDateMissingMessage,
  EMAIL_MAX_CHARS,
  hasAdultBirthDate,
  NAME_MAX_CHARS,
  NAME_MAX_WORDS,
  NAME_MIN_CHARS,
  profileDetailsSchema,
  profileStep,
  shownProfileStep,
} from '~/domain/profile'

const today = new Date('2026-11-22T06:00:00Z')
const valid = { name: 'Asha Rao', email: 'Asha@Example.IN', dob: '2001-05-17', pan: 'abcpe1234f' }
const parse = (input: Partial<typeof valid>) => profileDetailsSchema(today).safeParse({ ...valid, ...input })
const firstError = (input: Partial<typeof valid>) => {
  const result = parse(input)
  return result.success ? null : result.error.issues[0]!.message
}

describe('profile details', () => {
  it('accepts valid details, keeping the name as typed, lowercasing the e-mail and uppercasing the PAN', () => {
    expect(parse({}).data).toEqual({ name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCPE1234F' })
    expect(parse({ name: '  Asha   McDonald ' }).data?.name).toBe('Asha McDonald')
  })

  it('takes names of 3 to 24 characters and 4 words at most (docs/product.md section 5)', () => {
    expect([NAME_MIN_CHARS, NAME_MAX_CHARS, NAME_MAX_WORDS]).toEqual([3, 24, 4])
  })

  it('takes names of 3 and of 24 characters, not 2 or 25', () => {
    expect(parse({ name: 'abc' }).success).toBe(true)
    expect(parse({ name: 'a'.repeat(24) }).success).toBe(true)
    expect(firstError({ name: 'ab' })).toBe('Your name needs at least 3 characters.')
    expect(firstError({ name: 'a'.repeat(25) })).toBe('Your name can have at most 24 characters.')
  })

  it('takes 4 words, not 5', () => {
    expect(parse({ name: 'a bb cc dd' }).success).toBe(true)
    expect(firstError({ name: 'a bb cc dd ee' })).toBe('Your name can have at most 4 words.')
  })

  it('takes letters and spaces only', () => {
    expect(firstError({ name: 'asha rao 2' })).toBe('Use letters and spaces only in your name.')
    expect(firstError({ name: "o'brien" })).toBe('Use letters and spaces only in your name.')
  })

  it('wants an e-mail address with a top-level domain of 2 or more letters', () => {
    expect(parse({ email: 'a@b.in' }).success).toBe(true)
    expect(firstError({ email: 'a@b.c' })).toBe('Enter an e-mail address like name@example.com.')
    expect(firstError({ email: 'a@example' })).toBe('Enter an e-mail address like name@example.com.')
  })

  it('refuses an e-mail address with quotes, angle brackets, control characters or more than 254 characters', () => {
    expect(firstError({ email: '"><img/src=x/onerror=alert(1)>@x.co' })).toBe(
      'Enter an e-mail address like name@example.com.',
    )
    expect(firstError({ email: 'asha\u0000@example.in' })).toBe('Enter an e-mail address like name@example.com.')
    expect(firstError({ email: 'a<b@example.in' })).toBe('Enter an e-mail address like name@example.com.')
    const domain = '@example.in'
    expect(parse({ email: `${'a'.repeat(EMAIL_MAX_CHARS - domain.length)}${domain}` }).success).toBe(true)
    expect(firstError({ email: `${'a'.repeat(EMAIL_MAX_CHARS + 1 - domain.length)}${domain}` })).toBe(
      'Your e-mail address can have at most 254 characters.',
    )
    expect(firstError({ email: `${'a'.repeat(65_000)}${domain}` })).toBe(
      'Your e-mail address can have at most 254 characters.',
    )
  })

  it('takes someone who turns 18 today, not someone who turns 18 tomorrow (17 years 364 days)', () => {
    expect(parse({ dob: '2008-11-22' }).success).toBe(true)
    expect(firstError({ dob: '2008-11-23' })).toBe('You must be 18 or older to subscribe.')
  })

  it('refuses dates that do not exist', () => {
    expect(firstError({ dob: '2001-02-30' })).toBe('Enter a real date of birth.')
    expect(firstError({ dob: '1850-01-01' })).toBe('Enter a real date of birth.')
  })

  it("takes an individual's PAN typed in lower case, and refuses a company's or a malformed one", () => {
    expect(parse({ pan: 'abcpe1234f' }).data?.pan).toBe('ABCPE1234F')
    expect(firstError({ pan: 'ABCCE1234F' })).toBe("This is not an individual's PAN: its fourth letter must be P.")
    expect(firstError({ pan: 'ABCP1234EF' })).toMatch(/^Enter your PAN as 5 letters, 4 digits and 1 letter/)
  })

  it('says one thing about a malformed PAN, not also that its fourth letter is not P', () => {
    const messages = (pan: string) => {
      const result = parse({ pan })
      return result.success ? [] : result.error.issues.map((issue) => issue.message)
    }
    expect(messages('AB12')).toEqual(['Enter your PAN as 5 letters, 4 digits and 1 letter, like ABCPE1234F.'])
    expect(messages('ABCDE1234F')).toEqual(["This is not an individual's PAN: its fourth letter must be P."])
  })
})

describe('profileStep', () => {
  const complete = {
    name: 'asha rao',
    email: 'asha@example.in',
    dateOfBirth: new Date('2001-05-17'),
    pan: 'ABCPE1234F',
    panCardKey: 'pan-cards/u/1.jpg',
    agreementAcceptedAt: new Date(),
  }

  it('resumes at the first missing step', () => {
    expect(profileStep({ ...complete, email: null, panCardKey: null })).toBe('details')
    expect(profileStep({ ...complete, panCardKey: null, agreementAcceptedAt: null })).toBe('pan-card')
    expect(profileStep({ ...complete, agreementAcceptedAt: null })).toBe('agreement')
    expect(profileStep(complete)).toBe('complete')
  })
})

describe('shownProfileStep', () => {
  it('goes back to step 1 when asked, until the profile is complete', () => {
    expect(shownProfileStep('pan-card', 'details')).toBe('details')
    expect(shownProfileStep('agreement', 'details')).toBe('details')
    expect(shownProfileStep('details', 'details')).toBe('details')
    // A complete profile's details change only through a correction request.
    expect(shownProfileStep('complete', 'details')).toBe('complete')
  })

  it('shows the first missing step otherwise', () => {
    expect(shownProfileStep('pan-card', null)).toBe('pan-card')
    expect(shownProfileStep('agreement', 'agreement')).toBe('agreement')
    expect(shownProfileStep('agreement', 'anything')).toBe('agreement')
  })
})

describe('hasAdultBirthDate', () => {
  it("is the schema's rule for a saved date: 18 today or older (India's calendar), never without one", () => {
    const saved = (iso: string) => new Date(`${iso}T00:00:00Z`)
    expect(hasAdultBirthDate(saved('2008-11-22'), today)).toBe(true)
    expect(hasAdultBirthDate(saved('2008-11-23'), today)).toBe(false)
    expect(hasAdultBirthDate(null, today)).toBe(false)
    // 23:30 UTC on the 22nd is already the 23rd in India.
    expect(hasAdultBirthDate(saved('2008-11-23'), new Date('2026-11-22T23:30:00Z'))).toBe(true)
  })

  it('says what is missing: the details, or the age', () => {
    expect(adultBirthDateMissingMessage(null, 'at step 1')).toMatch(/^Save your details first \(.*at step 1\)/)
    expect(adultBirthDateMissingMessage(new Date('2015-01-01'), 'at step 1')).toMatch(/18 or older/)
  })
})
