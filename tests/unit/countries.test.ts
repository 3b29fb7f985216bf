import { countries } from 'countries-list'
import { describe, expect, it } from 'vitest'
import { DEFAULT_COUNTRY, SendCodeSchema } from '~/domain/sign-in'
import { DIAL_CODE_OPTIONS, dialCodeFor } from '~/server/auth/dial-codes.server'

const optionsOf = (country: string) =>
  DIAL_CODE_OPTIONS.filter(({ value }) => value === country || value.startsWith(`${country}-`))

describe('country codes on /auth', () => {
  it('offers every dial code of every country in countries-list, each once', () => {
    const dialCodes = Object.values(countries).reduce((total, country) => total + country.phone.length, 0)
    expect(DIAL_CODE_OPTIONS).toHaveLength(dialCodes)
    expect(new Set(DIAL_CODE_OPTIONS.map((option) => option.value)).size).toBe(DIAL_CODE_OPTIONS.length)
  })

  it('keeps a country with one dial code a single option named by the country, India by default', () => {
    expect(DEFAULT_COUNTRY).toBe('IN')
    expect(optionsOf('IN')).toEqual([{ value: 'IN', label: 'India (+91)' }])
    expect(dialCodeFor('IN')).toBe('91')
    expect(dialCodeFor('US')).toBe('1')
  })

  it('gives a country with several dial codes one option for each', () => {
    expect(optionsOf('XK').map((option) => option.label)).toEqual([
      'Kosovo (+377)',
      'Kosovo (+381)',
      'Kosovo (+383)',
      'Kosovo (+386)',
    ])
    expect(optionsOf('DO').map((option) => option.value)).toEqual(['DO-1809', 'DO-1829', 'DO-1849'])
    expect(optionsOf('PR').map((option) => option.label)).toEqual(['Puerto Rico (+1787)', 'Puerto Rico (+1939)'])
    expect(dialCodeFor('XK-383')).toBe('383')
    expect(dialCodeFor('DO-1829')).toBe('1829')
  })

  it('knows no dial code for a value it did not offer', () => {
    expect(dialCodeFor('XK')).toBeNull()
    expect(dialCodeFor('DO-1234')).toBeNull()
    expect(dialCodeFor('IN-91')).toBeNull()
    expect(dialCodeFor('ZZ')).toBeNull()
  })

  it('lets the form carry any offered value', () => {
    for (const { value } of DIAL_CODE_OPTIONS)
      expect(SendCodeSchema.safeParse({ country: value, mobile: '9876543210' }).success).toBe(true)
    expect(SendCodeSchema.safeParse({ country: 'india', mobile: '9876543210' }).success).toBe(false)
  })
})
