import { describe, expect, it } from 'vitest'
import {
  correctionRequestSchema,
  kycAdvice,
  kycAllowsPayment,
  kycCorrectionWay,
  kycPaymentRefusal,
  KYC_RECHECK_WINDOW_MS,
  KYC_RECHECKS_PER_WINDOW,
  KYC_STATUSES,
} from '~/domain/kyc'
import { parseEnv } from '~/server/env.server'
import {
  checkKyc,
  fakeKra,
  FAKE_KRA_OTHER_NAME,
  FAKE_KRA_TEST_PANS,
  httpKra,
  kycProvider,
  fakeKraOtherDob,
  KycUnavailableError,
} from '~/server/kyc/kra.server'

const query = (pan: string) => ({ pan, dob: '2001-05-17', name: 'asha rao' })
const today = new Date('2026-11-22T06:00:00Z')

describe('the fake KRA', () => {
  it('validates any well-formed individual PAN with the profile name on record and a stable reference', async () => {
    const answer = await checkKyc(query('ABCPE1234F'), { provider: fakeKra })
    expect(answer).toEqual({
      status: 'VALIDATED',
      nameOnRecord: 'ASHA RAO',
      dobOnRecord: '2001-05-17',
      reference: expect.stringMatching(/^FAKE-[0-9A-F]{12}$/),
    })
    expect((await checkKyc(query('ABCPE1234F'), { provider: fakeKra })).reference).toBe(answer.reference)
  })

  it.each([
    [FAKE_KRA_TEST_PANS.registered, 'REGISTERED'],
    [FAKE_KRA_TEST_PANS.onHold, 'ON_HOLD'],
    [FAKE_KRA_TEST_PANS.notFound, 'NOT_FOUND'],
    [FAKE_KRA_TEST_PANS.rejected, 'REJECTED'],
    [FAKE_KRA_TEST_PANS.otherName, 'VALIDATED'],
    [FAKE_KRA_TEST_PANS.otherDob, 'VALIDATED'],
    ['ABCDE1234F', 'NOT_FOUND'],
  ])('answers %s with %s', async (pan, status) => {
    expect((await checkKyc(query(pan), { provider: fakeKra })).status).toBe(status)
  })

  it('has a test PAN whose name on record differs, and one whose date of birth does', async () => {
    expect(await checkKyc(query(FAKE_KRA_TEST_PANS.otherName), { provider: fakeKra })).toMatchObject({
      nameOnRecord: FAKE_KRA_OTHER_NAME,
      dobOnRecord: '2001-05-17',
    })
    expect(await checkKyc(query(FAKE_KRA_TEST_PANS.otherDob), { provider: fakeKra })).toMatchObject({
      nameOnRecord: 'ASHA RAO',
      dobOnRecord: '2000-05-17',
    })
    expect(fakeKraOtherDob('2004-02-29')).toBe('2003-02-28')
  })

  it('fails with KycUnavailableError for the error PAN, and times out for the slow one', async () => {
    await expect(checkKyc(query(FAKE_KRA_TEST_PANS.error), { provider: fakeKra })).rejects.toBeInstanceOf(
      KycUnavailableError,
    )
    await expect(checkKyc(query(FAKE_KRA_TEST_PANS.slow), { provider: fakeKra, timeoutMs: 50 })).rejects.toThrow(
      /did not answer/,
    )
  })

  it('does not wait for a provider that ignores the timeout', async () => {
    const stuck = { name: 'stuck', check: () => new Promise<never>(() => {}) }
    await expect(checkKyc(query('ABCPE1234F'), { provider: stuck, timeoutMs: 50 })).rejects.toThrow(/within 50 ms/)
  })
})

describe('choosing the KRA', () => {
  it('is the fake in demo mode and the HTTP client when configured', () => {
    expect(kycProvider(parseEnv({})).name).toBe('fake KRA')
    expect(
      kycProvider(
        parseEnv({ KYC_PROVIDER: 'http', KYC_KRA_URL: 'https://kra.example.in', KYC_KRA_API_KEY: 'key-12345' }),
      ).name,
    ).toBe('KRA over HTTP')
  })

  it('refuses the HTTP client without its address or key (env.test.ts: the fake in a deployment)', () => {
    expect(() => parseEnv({ KYC_PROVIDER: 'http', KYC_KRA_API_KEY: 'key-12345' })).toThrow(
      /^Missing environment variable KYC_KRA_URL .* required when KYC_PROVIDER=http$/,
    )
    expect(() => parseEnv({ KYC_PROVIDER: 'kra' })).toThrow(/^Invalid environment variable KYC_PROVIDER/)
  })

  it('the HTTP client reads an answer and turns anything else into KycUnavailableError', async () => {
    const server = (body: unknown, status = 200) =>
      httpKra({ url: 'https://kra.example.in/api', apiKey: 'k' }) && {
        name: 'stub',
        check: async (q: ReturnType<typeof query>, signal: AbortSignal) => {
          const original = globalThis.fetch
          globalThis.fetch = (async (url: URL, init: RequestInit) => {
            expect(String(url)).toBe('https://kra.example.in/api/kyc/status')
            expect(new Headers(init.headers).get('authorization')).toBe('Bearer k')
            return Response.json(body, { status })
          }) as typeof fetch
          try {
            return await httpKra({ url: 'https://kra.example.in/api', apiKey: 'k' }).check(q, signal)
          } finally {
            globalThis.fetch = original
          }
        },
      }
    expect(
      await checkKyc(query('ABCPE1234F'), {
        provider: server({ status: 'REGISTERED', nameOnRecord: 'ASHA RAO', reference: 'R1' }),
      }),
    ).toEqual({ status: 'REGISTERED', nameOnRecord: 'ASHA RAO', dobOnRecord: null, reference: 'R1' })
    expect(
      await checkKyc(query('ABCPE1234F'), {
        provider: server({ status: 'VALIDATED', nameOnRecord: 'ASHA RAO', dobOnRecord: '2001-05-17', reference: 'R2' }),
      }),
    ).toMatchObject({ dobOnRecord: '2001-05-17' })
    await expect(checkKyc(query('ABCPE1234F'), { provider: server({ status: 'MAYBE' }) })).rejects.toBeInstanceOf(
      KycUnavailableError,
    )
    await expect(checkKyc(query('ABCPE1234F'), { provider: server({}, 502) })).rejects.toThrow(/answered 502/)
  })
})

describe('KYC rules', () => {
  it('allows paying for validated and registered only', () => {
    expect(KYC_STATUSES.filter((status) => kycAllowsPayment(status))).toEqual(['VALIDATED', 'REGISTERED'])
    expect(kycAllowsPayment(null)).toBe(false)
  })

  it('tells the customer what to do', () => {
    expect(kycAdvice('NOT_FOUND', 'help@x.in')).toMatch(/correction.*Check my KYC again.*help@x\.in/)
    expect(kycAdvice('ON_HOLD', 'help@x.in')).toMatch(/on hold/)
    expect(kycAdvice('REJECTED', 'help@x.in')).toMatch(/rejected.*Check my KYC again/)
    expect(kycPaymentRefusal('ON_HOLD')).toMatch(/KYC .* is on hold/)
    expect(kycPaymentRefusal('REJECTED')).toMatch(/KYC .* is rejected/)
    expect(kycPaymentRefusal(null)).toMatch(/has not been checked/)
  })

  it('names the way to correct the details that exists where the advice is read', () => {
    expect(kycCorrectionWay(false)).toBe('wizard')
    expect(kycCorrectionWay(true)).toBe('kyc-details-page')
    for (const status of ['NOT_FOUND', 'ON_HOLD', 'REJECTED'] as const) {
      const inWizard = kycAdvice(status, 'help@x.in', 'wizard')
      expect(inWizard).toContain('go back to step 1 and correct them')
      expect(inWizard).not.toMatch(/correction below/)
      expect(inWizard).toContain('Check my KYC again')
      const onDetailsPage = kycAdvice(status, 'help@x.in', 'kyc-details-page')
      expect(onDetailsPage).toContain('ask for a correction below')
      expect(onDetailsPage).not.toMatch(/step 1/)
    }
    expect(kycAdvice(null, 'help@x.in', 'wizard')).toMatch(/save your details at step 1/)
    expect(kycAdvice(null, 'help@x.in', 'kyc-details-page')).toMatch(/choose "Check my KYC again"/)
  })

  it('refuses a payment in words, with no path in the sentence', () => {
    for (const status of [...KYC_STATUSES.filter((status) => !kycAllowsPayment(status)), null]) {
      const refusal = kycPaymentRefusal(status)
      expect(refusal).toMatch(/^You cannot pay yet: /)
      expect(refusal).toContain('KYC details page')
      expect(refusal).not.toMatch(/\//)
    }
  })

  it('limits "Check my KYC again" to 5 an hour', () => {
    expect(KYC_RECHECKS_PER_WINDOW).toBe(5)
    expect(KYC_RECHECK_WINDOW_MS).toBe(3_600_000)
  })

  it("validates a correction request's fields by the profile's rules", () => {
    const parse = (input: object) => correctionRequestSchema(today).safeParse(input)
    expect(parse({ pan: 'abcpe1234f', name: '', dob: '', reason: 'typo' })).toMatchObject({
      success: true,
      data: { pan: 'ABCPE1234F', name: undefined, reason: 'typo' },
    })
    expect(parse({ pan: 'ABCDE1234F', reason: 'x' }).success).toBe(false)
    expect(parse({ dob: '2015-01-01', reason: 'x' }).success).toBe(false)
    expect(parse({ reason: 'nothing' }).error?.issues[0]?.message).toMatch(/at least one new value/)
    expect(parse({ name: 'asha rao' }).success).toBe(false)
  })
})
