import { describe, expect, it } from 'vitest'
import { FeeCapExemptionSchema } from '~/domain/admin'
import { SEBI_FEE_CAP_PAISE } from '~/domain/fee-cap'
import { parseEnv } from '~/server/env.server'

describe('parseEnv: the family fee cap', () => {
  it("defaults to SEBI's Rs 1,51,000 over the 12 months before now", () => {
    const env = parseEnv({})
    expect(env.FEE_CAP_PAISE).toBe(15_100_000)
    expect(env.FEE_CAP_PAISE).toBe(SEBI_FEE_CAP_PAISE)
    expect(env.FEE_CAP_WINDOW).toBe('rolling-12-months')
  })

  it('takes another cap in paise and the financial year as the window', () => {
    const env = parseEnv({ FEE_CAP_PAISE: '20000000', FEE_CAP_WINDOW: 'financial-year' })
    expect(env.FEE_CAP_PAISE).toBe(20_000_000)
    expect(env.FEE_CAP_WINDOW).toBe('financial-year')
  })

  it('refuses a cap that is not a whole positive number of paise, in one line naming the variable', () => {
    for (const value of ['0', '-1', '151000.50', 'Rs 1,51,000']) {
      expect(() => parseEnv({ FEE_CAP_PAISE: value })).toThrow(
        'Invalid environment variable FEE_CAP_PAISE: must be a whole number of paise, such as 15100000 for Rs 1,51,000',
      )
    }
  })

  it('refuses a window it does not know', () => {
    expect(() => parseEnv({ FEE_CAP_WINDOW: 'calendar-year' })).toThrow(
      'Invalid environment variable FEE_CAP_WINDOW: must be rolling-12-months or financial-year',
    )
  })
})

describe('FeeCapExemptionSchema', () => {
  it('needs a kind and a reason to mark a customer exempt', () => {
    expect(
      FeeCapExemptionSchema.parse({
        intent: 'fee-cap-exempt',
        exemption: 'NON_INDIVIDUAL',
        reason: '  A trust, PAN AAATT1234Q  ',
      }),
    ).toEqual({ intent: 'fee-cap-exempt', exemption: 'NON_INDIVIDUAL', reason: 'A trust, PAN AAATT1234Q' })
    const refused = FeeCapExemptionSchema.safeParse({ intent: 'fee-cap-exempt', exemption: 'RICH', reason: '' })
    expect(refused.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['exemption', 'reason'])
  })

  it('removes the mark without a reason', () => {
    expect(FeeCapExemptionSchema.parse({ intent: 'fee-cap-unexempt' })).toEqual({ intent: 'fee-cap-unexempt' })
  })
})
