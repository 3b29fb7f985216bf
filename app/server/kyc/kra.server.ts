import { createHash } from 'node:crypto'
import { z } from 'zod'
import { KYC_STATUSES, type KycStatus } from '~/domain/kyc'
import { getErrorMessage } from '~/domain/error-message'
import type { Prisma } from '~/generated/prisma/client'
import { env, type Env } from '../env.server'

// KYC through a KRA (SEBI's KYC Registration Agencies): given a PAN and date of birth, the KRA
// answers validated / registered / on hold / not found / rejected, with the name it holds. The provider is
// chosen from configuration like the SMS and gateway ones: the local fake in demo mode and tests,
// a KRA's HTTP interface in a deployment (env.server.ts refuses to start one without it).

export type KycQuery = {
  pan: string
  /** YYYY-MM-DD. */
  dob: string
  /** The profile's name; only the fake uses it, as the name on its "record". */
  name: string
}

export type KycAnswer = {
  status: KycStatus
  nameOnRecord: string | null
  /** YYYY-MM-DD; null when the KRA gave none (then the query's date of birth is not compared). */
  dobOnRecord: string | null
  reference: string
}

/** The KRA did not answer (unreachable, an error, or not within KYC_TIMEOUT_MS): try again later. */
export class KycUnavailableError extends Error {
  override name = 'KycUnavailableError'
}

export type KycProvider = { name: string; check: (query: KycQuery, signal: AbortSignal) => Promise<KycAnswer> }

/**
 * The fake's documented test PANs (docs/regulatory.md): a PAN starting with one of these five
 * letters (any 4 digits and last letter, so tests can each have their own: one account per PAN)
 * gets the answer named; every other well-formed individual PAN is VALIDATED with the profile's
 * name on record. The values are one example of each.
 */
export const FAKE_KRA_TEST_PANS = {
  /** REGISTERED: paying is allowed. */
  registered: 'KRAPR0001R',
  /** ON_HOLD: paying is refused. */
  onHold: 'KRAPH0002H',
  /** NOT_FOUND: paying is refused. */
  notFound: 'KRAPN0003N',
  /** REJECTED: paying is refused. */
  rejected: 'KRAPJ0007J',
  /** VALIDATED, but the name on record is not the profile's: paying waits for the admin's decision. */
  otherName: 'KRAPM0004M',
  /** VALIDATED, but the date of birth on record is a year before the profile's: paying waits for the admin's decision. */
  otherDob: 'KRAPD0008D',
  /** The KRA answers with an error. */
  error: 'KRAPE0005E',
  /** The KRA does not answer in time (the check times out). */
  slow: 'KRAPS0006S',
} as const

/** A test PAN of the fake's `kind` family, with the given 4 digits and last letter (e.g. from a random source). */
export function fakeKraTestPan(kind: keyof typeof FAKE_KRA_TEST_PANS, digits: string, last = 'Z'): string {
  return `${FAKE_KRA_TEST_PANS[kind].slice(0, 5)}${digits}${last}`
}

const testPanKind = (pan: string) =>
  (Object.keys(FAKE_KRA_TEST_PANS) as (keyof typeof FAKE_KRA_TEST_PANS)[]).find(
    (kind) => pan.slice(0, 5) === FAKE_KRA_TEST_PANS[kind].slice(0, 5),
  )

export const FAKE_KRA_OTHER_NAME = 'RECORD NAME DIFFERS'

/** The fake's other date of birth: a year before the one asked about. */
export function fakeKraOtherDob(dob: string): string {
  const year = Number(dob.slice(0, 4)) - 1
  // 29 February has no twin a year before.
  return `${String(year).padStart(4, '0')}${dob.slice(4) === '-02-29' ? '-02-28' : dob.slice(4)}`
}

function fakeReference(query: KycQuery): string {
  return `FAKE-${createHash('sha256').update(`${query.pan}:${query.dob}`).digest('hex').slice(0, 12).toUpperCase()}`
}

/** The local stand-in for a KRA: no network, deterministic answers. */
export const fakeKra: KycProvider = {
  name: 'fake KRA',
  async check(query, signal) {
    const reference = fakeReference(query)
    const record = { nameOnRecord: query.name.toUpperCase(), dobOnRecord: query.dob, reference }
    const noRecord = { nameOnRecord: null, dobOnRecord: null, reference }
    switch (testPanKind(query.pan)) {
      case 'registered':
        return { status: 'REGISTERED', ...record }
      case 'onHold':
        return { status: 'ON_HOLD', ...record }
      case 'notFound':
        return { status: 'NOT_FOUND', ...noRecord }
      case 'rejected':
        return { status: 'REJECTED', ...record }
      case 'otherName':
        return { status: 'VALIDATED', ...record, nameOnRecord: FAKE_KRA_OTHER_NAME }
      case 'otherDob':
        return { status: 'VALIDATED', ...record, dobOnRecord: fakeKraOtherDob(query.dob) }
      case 'error':
        throw new KycUnavailableError('The fake KRA answered 503 (its test PAN for an error)')
      case 'slow':
        // Never answers: the caller's timeout ends the wait.
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new KycUnavailableError('The fake KRA did not answer')), {
            once: true,
          })
        })
    }
    return /^[A-Z]{3}P[A-Z]\d{4}[A-Z]$/.test(query.pan)
      ? { status: 'VALIDATED', ...record }
      : { status: 'NOT_FOUND', ...noRecord }
  },
}

const HttpKraAnswerSchema = z.object({
  status: z.enum(KYC_STATUSES),
  nameOnRecord: z.string().max(200).nullable().optional(),
  dobOnRecord: z.iso.date().nullable().optional(),
  reference: z.string().min(1).max(100),
})

/**
 * A KRA's interface over HTTP, in the shape this store expects (docs/regulatory.md): POST
 * `{pan, dob}` as JSON to `<url>/kyc/status` with `Authorization: Bearer <key>`, answered with
 * `{status, nameOnRecord, dobOnRecord, reference}`. An operator puts an adapter for their KRA (CVL, NDML, CAMS,
 * Karvy, DotEx) behind this address.
 */
export function httpKra({ url, apiKey }: { url: string; apiKey: string }): KycProvider {
  return {
    name: 'KRA over HTTP',
    async check(query, signal) {
      let response: Response
      try {
        response = await fetch(new URL('kyc/status', url.endsWith('/') ? url : `${url}/`), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({ pan: query.pan, dob: query.dob }),
          signal,
        })
      } catch (error) {
        throw new KycUnavailableError(`The KRA could not be reached: ${getErrorMessage(error)}`)
      }
      if (!response.ok) throw new KycUnavailableError(`The KRA answered ${response.status}`)
      const parsed = HttpKraAnswerSchema.safeParse(await response.json().catch(() => null))
      if (!parsed.success) throw new KycUnavailableError('The KRA answered something other than a KYC status')
      return {
        ...parsed.data,
        nameOnRecord: parsed.data.nameOnRecord ?? null,
        dobOnRecord: parsed.data.dobOnRecord ?? null,
      }
    },
  }
}

export type KycSettings = Pick<Env, 'KYC_PROVIDER' | 'KYC_KRA_URL' | 'KYC_KRA_API_KEY' | 'DEMO_MODE' | 'NODE_ENV'>

let override: KycProvider | undefined

/** Tests put a provider of their own in place (undefined: back to configuration). */
export function useKycProvider(provider: KycProvider | undefined): void {
  override = provider
}

/** The configured KRA: HTTP when KYC_PROVIDER=http, else the fake (env.server.ts refuses the fake in a deployment). */
export function kycProvider(settings: KycSettings = env): KycProvider {
  if (override) return override
  if (settings.KYC_PROVIDER === 'http' && settings.KYC_KRA_URL && settings.KYC_KRA_API_KEY) {
    return httpKra({ url: settings.KYC_KRA_URL, apiKey: settings.KYC_KRA_API_KEY })
  }
  if (!settings.DEMO_MODE && settings.NODE_ENV !== 'test') {
    throw new Error('No KYC provider is configured: set KYC_PROVIDER=http with KYC_KRA_URL and KYC_KRA_API_KEY')
  }
  return fakeKra
}

/** Asks the KRA, waiting at most `timeoutMs`; a KycUnavailableError when it does not answer. */
export async function checkKyc(
  query: KycQuery,
  { provider = kycProvider(), timeoutMs = env.KYC_TIMEOUT_MS }: { provider?: KycProvider; timeoutMs?: number } = {},
): Promise<KycAnswer> {
  const signal = AbortSignal.timeout(timeoutMs)
  // A provider that ignores the signal is not waited for either.
  const timedOut = new Promise<never>((_resolve, reject) =>
    signal.addEventListener(
      'abort',
      () => reject(new KycUnavailableError(`The KRA did not answer within ${timeoutMs} ms`)),
      { once: true },
    ),
  )
  try {
    return await Promise.race([provider.check(query, signal), timedOut])
  } catch (error) {
    if (error instanceof KycUnavailableError) throw error
    throw new KycUnavailableError(`The KRA check failed: ${getErrorMessage(error)}`)
  }
}

/** The user row's columns for a KRA answer. */
export function kycColumns(answer: KycAnswer, now: Date) {
  return {
    kycStatus: answer.status,
    kycCheckedAt: now,
    kycReference: answer.reference,
    kycNameOnRecord: answer.nameOnRecord,
    kycDobOnRecord: answer.dobOnRecord ? new Date(`${answer.dobOnRecord}T00:00:00Z`) : null,
  } satisfies Prisma.UserUpdateInput
}
