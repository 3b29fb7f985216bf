import { describe, expect, it } from 'vitest'
import { safeRedirect, withRedirectTo } from '~/domain/redirect'
import {
  isIndianMobileNumber,
  MOBILE_NUMBER_DIGITS,
  MOBILE_NUMBER_MESSAGE,
  nationalMobileNumber,
  OTP_DIGITS,
  OTP_RESEND_COOLDOWN_MS,
  OTP_RESEND_MEMORY_MS,
  OTP_RESEND_WAIT_MAX_MS,
  otpResendWaitMs,
  SendCodeSchema,
  SignInFormSchema,
  toE164,
  VerifyCodeSchema,
} from '~/domain/sign-in'
import { isCrossSiteWrite } from '~/server/http/origin.server'

describe('sign-in forms', () => {
  it('has 10-digit numbers and 6-digit codes (docs/product.md section 5)', () => {
    expect([MOBILE_NUMBER_DIGITS, OTP_DIGITS]).toEqual([10, 6])
  })

  it('waits 30 seconds after a first code, doubling per code of the last hour up to 5 minutes', () => {
    expect([OTP_RESEND_COOLDOWN_MS, OTP_RESEND_WAIT_MAX_MS, OTP_RESEND_MEMORY_MS]).toEqual([30_000, 300_000, 3_600_000])
    expect([0, 1, 2, 3, 4, 5, 6, 120, 1e6].map(otpResendWaitMs)).toEqual([
      0, 30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000, 300_000,
    ])
  })

  it('takes a 10-digit mobile number, spaces allowed', () => {
    expect(SendCodeSchema.parse({ country: 'IN', mobile: '98765 43210' }).mobile).toBe('9876543210')
    expect(SendCodeSchema.safeParse({ country: 'IN', mobile: '987654321' }).success).toBe(false)
    expect(SendCodeSchema.safeParse({ country: 'IN', mobile: '98765abcde' }).success).toBe(false)
  })

  it('takes a pasted number with spaces, dashes, dots, brackets or the country code, and says what it wants otherwise', () => {
    const parsed = (mobile: string) => SendCodeSchema.safeParse({ country: 'IN', mobile })
    expect(parsed('+91 98765 43210')).toMatchObject({ success: true, data: { mobile: '+919876543210' } })
    expect(parsed('(987) 654-3210')).toMatchObject({ success: true, data: { mobile: '9876543210' } })
    expect(parsed(' 98765.43210 ')).toMatchObject({ success: true, data: { mobile: '9876543210' } })
    expect(parsed('98765 4321').error?.issues[0]?.message).toBe(MOBILE_NUMBER_MESSAGE)
    expect(parsed('+91 98765 abcde').error?.issues[0]?.message).toBe(MOBILE_NUMBER_MESSAGE)
  })

  it('reads the 10 national digits from a number written with +91, 0091, 91 or a leading 0', () => {
    for (const written of ['9876543210', '+919876543210', '00919876543210', '919876543210', '09876543210']) {
      expect(nationalMobileNumber(written, '91'), written).toBe('9876543210')
    }
    expect(nationalMobileNumber('+3839876543210', '383')).toBe('9876543210')
  })

  it('refuses a number of the wrong length or for another country code', () => {
    for (const written of ['98765432100', '987654321', '+449876543210', '+91987654321', '0919876543210']) {
      expect(nationalMobileNumber(written, '91'), written).toBeNull()
    }
  })

  it('takes Indian mobile numbers beginning 6 to 9 only (0 to 5 begin landline and service numbers)', () => {
    expect(['6000000000', '7012345678', '8123456789', '9876543210'].filter(isIndianMobileNumber)).toHaveLength(4)
    expect(['0123456789', '1800123456', '2212345678', '5999999999', '987654321'].filter(isIndianMobileNumber)).toEqual(
      [],
    )
  })

  it('takes exactly 6 digits as a code', () => {
    expect(VerifyCodeSchema.safeParse({ code: '012345' }).success).toBe(true)
    expect(VerifyCodeSchema.safeParse({ code: '12345' }).success).toBe(false)
    expect(VerifyCodeSchema.safeParse({ code: '1234567' }).success).toBe(false)
  })

  it('writes numbers in E.164', () => {
    expect(toE164('91', '9876543210')).toBe('+919876543210')
    expect(toE164('+44', '7911123456')).toBe('+447911123456')
  })
})

describe('safeRedirect', () => {
  it('follows same-site paths', () => {
    expect(safeRedirect('/pay')).toBe('/pay')
    expect(safeRedirect('/details?redirectTo=%2Fpay')).toBe('/details?redirectTo=%2Fpay')
  })

  it('percent-encodes what is not ASCII, which a Location header cannot carry', () => {
    expect(safeRedirect(decodeURIComponent('/%E2%98%83'))).toBe('/%E2%98%83')
    expect(safeRedirect('/pay?note=☃ x')).toBe('/pay?note=%E2%98%83 x')
    expect(safeRedirect('/😀')).toBe('/%F0%9F%98%80')
  })

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/pay',
    'evil.example',
    '/\tevil',
    '',
    null,
    undefined,
    '/\u007f',
    '/\u0000',
    '/a\u0085b',
    '/\ud800',
    '//evil\u2603.example',
  ])('refuses %j', (target) => {
    expect(safeRedirect(target, '/')).toBe('/')
  })

  it('adds redirectTo only when there is somewhere to go back to', () => {
    expect(withRedirectTo('/auth', '/pay')).toBe('/auth?redirectTo=%2Fpay')
    expect(withRedirectTo('/auth', '/')).toBe('/auth')
    expect(withRedirectTo('/auth', null)).toBe('/auth')
  })
})

describe('isCrossSiteWrite', () => {
  const host = 'store.example.in'

  it('lets reads and same-site writes through', () => {
    expect(isCrossSiteWrite('GET', { origin: 'https://evil.example' }, host)).toBe(false)
    expect(isCrossSiteWrite('POST', { origin: 'https://store.example.in' }, host)).toBe(false)
    expect(isCrossSiteWrite('POST', { secFetchSite: 'same-origin' }, host)).toBe(false)
    expect(isCrossSiteWrite('POST', {}, host)).toBe(false)
  })

  it('refuses writes from other sites', () => {
    expect(isCrossSiteWrite('POST', { origin: 'https://evil.example' }, host)).toBe(true)
    expect(isCrossSiteWrite('DELETE', { origin: 'https://store.example.in.evil.example' }, host)).toBe(true)
    expect(isCrossSiteWrite('POST', { origin: 'null' }, host)).toBe(true)
    expect(isCrossSiteWrite('POST', { secFetchSite: 'cross-site' }, host)).toBe(true)
  })
})

describe('SignInFormSchema', () => {
  it("reads /auth's four buttons, and checks the number only for Send OTP", () => {
    expect(SignInFormSchema.parse({ intent: 'send', country: 'IN', mobile: '98765 43210' })).toEqual({
      intent: 'send',
      country: 'IN',
      mobile: '9876543210',
    })
    expect(SignInFormSchema.safeParse({ intent: 'send', country: 'IN', mobile: '12' }).success).toBe(false)
    for (const intent of ['resend', 'change', 'verify'] as const) {
      expect(SignInFormSchema.parse({ intent, mobile: 'ignored' })).toEqual({ intent })
    }
    expect(SignInFormSchema.safeParse({ intent: 'other' }).success).toBe(false)
    expect(SignInFormSchema.safeParse({}).success).toBe(false)
  })
})
