import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { currentConsentDocuments } from '~/server/account/agreement-document.server'
import { CONSENT_DOCUMENT_KINDS, type ConsentDocumentKind } from '~/domain/consent'
import { latestAdultBirthDate, MS_PER_DAY } from '~/domain/dates'
import * as createOrder from '~/routes/api.v1/payments.create-order'
import * as setAgreementRoute from '~/routes/api.v1/users.set-agreement'
import * as setPanCardRoute from '~/routes/api.v1/users.set-pancard'
import * as consentsRoute from '~/routes/consents.accept'
import * as payRoute from '~/routes/pay'
import { agreementSigning } from '~/server/account/agreement.server'
import { eraseExpiredData } from '~/server/account/retention.server'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { createSession } from '~/server/session.server'
import type { FileStorage } from '~/server/storage.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// One onboarding, whatever the channel (docs/api.md, set-agreement): the API asks for what the
// wizard's agreement step asks for, records it the same way, refuses a minor, and a customer
// onboarded without the charter or the data consent gives them before the next payment.

const DOCUMENTS = currentConsentDocuments(businessDetails)
const CURRENT = Object.fromEntries(CONSENT_DOCUMENT_KINDS.map((kind) => [kind, DOCUMENTS[kind].version])) as Record<
  ConsentDocumentKind,
  string
>
const CLIENT_IP = '203.0.113.9'
const CONTEXT = { cspNonce: '', clientIp: CLIENT_IP }

/** A signed-in user whose details (with `dob`, or none) and PAN card are saved. */
async function userWith({ dob, panCard = true }: { dob: string | null; panCard?: boolean }) {
  const digits = String(randomInt(0, 1e9)).padStart(9, '0')
  const user = await prisma.user.create({
    data: {
      phone: `+919${digits}`,
      ...(dob
        ? {
            name: 'asha rao',
            email: `asha${digits}@example.in`,
            dateOfBirth: new Date(`${dob}T00:00:00Z`),
            pan: uniquePan(),
          }
        : {}),
      ...(panCard ? { panCardKey: `pan-cards/${digits}/1.png` } : {}),
    },
  })
  return { userId: user.id, cookie: (await createSession(user.id)).split(';')[0]! }
}

const signViaApi = async (cookie: string, body?: unknown) =>
  (await setAgreementRoute.action({
    request: new Request('http://localhost/api/v1/users/set-agreement', {
      method: 'POST',
      headers: {
        Cookie: cookie,
        'User-Agent': 'okhttp/4.12.0',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
    params: {},
    context: CONTEXT,
  } as never)) as Response

/** The onboarding documents' records (a mandate's consent, kind AUTOPAY_MANDATE, is not one). */
const recordsOf = async (userId: string) =>
  (
    await prisma.acceptance.findMany({
      where: { userId, kind: { in: [...CONSENT_DOCUMENT_KINDS] } },
      orderBy: [{ acceptedAt: 'asc' }, { kind: 'asc' }],
    })
  ).map((row) => ({ ...row, kind: row.kind as (typeof CONSENT_DOCUMENT_KINDS)[number] }))

/** Under 18 today by one day. */
const minorBirthDate = () =>
  new Date(Date.parse(`${latestAdultBirthDate(new Date())}T00:00:00Z`) + MS_PER_DAY).toISOString().slice(0, 10)

describe('POST /api/v1/users/set-agreement', () => {
  it("answers the original clients' body-less call 409, naming every document with its current version, and records nothing", async () => {
    const { userId, cookie } = await userWith({ dob: '2001-05-17' })
    const response = await signViaApi(cookie)
    expect(response.status).toBe(409)
    const body = (await response.json()) as { message: string; data: Record<string, unknown> }
    for (const kind of CONSENT_DOCUMENT_KINDS) expect(body.message).toContain(CURRENT[kind])
    expect(body.message).toContain('Investor Charter')
    expect(body.message).toContain('GET /api/v1/agreement')
    expect(body.data).toEqual({ version: CURRENT.TERMS, documents: CURRENT, missing: [...CONSENT_DOCUMENT_KINDS] })
    expect(await recordsOf(userId)).toEqual([])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).agreementAcceptedAt).toBeNull()
  })

  it('refuses the terms version alone, and a list missing one document, naming what is missing', async () => {
    const { userId, cookie } = await userWith({ dob: '2001-05-17' })
    const termsOnly = await signViaApi(cookie, { version: CURRENT.TERMS })
    expect(termsOnly.status).toBe(409)
    expect((await termsOnly.json()).data.missing).toEqual([
      'MITC',
      'CONSENT_STATEMENT',
      'INVESTOR_CHARTER',
      'PERSONAL_DATA',
    ])
    for (const left of CONSENT_DOCUMENT_KINDS) {
      const { [left]: _left, ...others } = CURRENT
      const refused = await signViaApi(cookie, { documents: others })
      expect(refused.status).toBe(409)
      const body = await refused.json()
      expect(body.data.missing).toEqual([left])
      expect(body.message).toContain(`${CURRENT[left]}`)
    }
    expect(await recordsOf(userId)).toEqual([])
  })

  it('refuses a version that is not current, showing the current ones, and records nothing', async () => {
    const { userId, cookie } = await userWith({ dob: '2001-05-17' })
    const response = await signViaApi(cookie, { documents: { ...CURRENT, INVESTOR_CHARTER: 'charter-000000000000' } })
    expect(response.status).toBe(409)
    const body = await response.json()
    expect(body.data).toMatchObject({ documents: CURRENT, stale: ['INVESTOR_CHARTER'] })
    expect(body.message).toContain(`Investor Charter (${CURRENT.INVESTOR_CHARTER})`)
    expect(await recordsOf(userId)).toEqual([])
  })

  it("records the full list exactly as the wizard's page does (but for the channel), and completes the profile", async () => {
    const { userId, cookie } = await userWith({ dob: '2001-05-17' })
    const before = Date.now()
    const response = await signViaApi(cookie, { documents: CURRENT })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      message: 'Agreement accepted.',
      data: { agreement: true, version: CURRENT.TERMS, documents: CURRENT },
    })
    const records = await recordsOf(userId)
    expect(records.map((record) => record.kind).sort()).toEqual([...CONSENT_DOCUMENT_KINDS].sort())
    for (const record of records) {
      expect(record).toMatchObject({
        version: DOCUMENTS[record.kind].version,
        textSha256: DOCUMENTS[record.kind].textSha256,
        ip: CLIENT_IP,
        userAgent: 'okhttp/4.12.0',
        channel: 'API',
      })
      expect(record.acceptedAt.getTime()).toBeGreaterThanOrEqual(before)
    }
    expect(await prisma.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({
      agreementVersion: CURRENT.TERMS,
      agreementTextSha256: DOCUMENTS.TERMS.textSha256,
      agreementIp: CLIENT_IP,
      agreementAcceptedAt: records[0]!.acceptedAt,
    })
    // The same rows as the page's (tests/support/sessions.ts signs as /details does), channel apart.
    const page = await signedInUser({ completeProfile: true })
    const shape = (rows: Awaited<ReturnType<typeof recordsOf>>) =>
      rows
        .map(({ kind, version, textSha256 }) => ({ kind, version, textSha256 }))
        .sort((a, b) => a.kind.localeCompare(b.kind))
    expect(shape(records)).toEqual(shape(await recordsOf(page.userId)))
  })

  it('takes `version` as the terms of `documents`, and refuses the two disagreeing', async () => {
    const { cookie } = await userWith({ dob: '2001-05-17' })
    const { TERMS: _terms, ...others } = CURRENT
    expect((await signViaApi(cookie, { version: 'agreement-000000000000', documents: CURRENT })).status).toBe(400)
    expect((await signViaApi(cookie, { version: CURRENT.TERMS, documents: others })).status).toBe(200)
  })

  it('is refused until an adult date of birth is saved', async () => {
    for (const dob of [null, minorBirthDate()]) {
      const { userId, cookie } = await userWith({ dob })
      const response = await signViaApi(cookie, { documents: CURRENT })
      expect(response.status).toBe(409)
      expect((await response.json()).message).toMatch(dob ? /18 or older/ : /Save your details first/)
      expect(await recordsOf(userId)).toEqual([])
    }
  })
})

describe('POST /api/v1/users/set-pancard', () => {
  const upload = (cookie: string) => {
    const form = new FormData()
    form.set('pancard', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'pan.png')
    return setPanCardRoute.action({
      request: new Request('http://localhost/api/v1/users/set-pancard', {
        method: 'POST',
        headers: { Cookie: cookie },
        body: form,
      }),
      params: {},
      context: CONTEXT,
    } as never) as Promise<Response>
  }

  it('refuses the image before any date of birth, and under 18, unread (the connection closes)', async () => {
    for (const dob of [null, minorBirthDate()]) {
      const { userId, cookie } = await userWith({ dob, panCard: false })
      const response = await upload(cookie)
      expect(response.status).toBe(409)
      expect(response.headers.get('Connection')).toBe('close')
      expect((await response.json()).message).toMatch(dob ? /18 or older/ : /Save your details first/)
      expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).panCardKey).toBeNull()
    }
  })
})

describe('a customer onboarded without the charter or the data consent', () => {
  /** A complete profile whose acceptance, through the old API, recorded the terms, the MITC and the consent statement only. */
  async function oldApiCustomer() {
    const customer = await userWith({ dob: '2001-05-17' })
    await prisma.user.update({
      where: { id: customer.userId },
      data: { kycStatus: 'VALIDATED', kycCheckedAt: new Date() },
    })
    await agreementSigning().sign(
      customer.userId,
      (['TERMS', 'MITC', 'CONSENT_STATEMENT'] as const).map((kind) => DOCUMENTS[kind]),
      { ip: CLIENT_IP, userAgent: 'okhttp/4.12.0', channel: 'API' },
    )
    return customer
  }

  const orderBody = (serviceId: string, amount: number) => ({
    amount,
    currency: 'INR',
    receipt: 'ABCPE1234F',
    notes: { number: '+919876543210', details: '{}', cart: JSON.stringify([serviceId]) },
  })

  it('is answered 409 by create-order, naming both with their versions; after set-agreement the order opens', async () => {
    const { userId, cookie } = await oldApiCustomer()
    const service = await createService('Equity', 299_900, 30)
    const call = () =>
      createOrder.action(routeArgs(jsonRequest('/api/v1/payments/create-order', orderBody(service.id, 2999), cookie)))
    const refused = await call()
    expect(refused.status).toBe(409)
    const body = await refused.json()
    expect(body.message).toContain(`Investor Charter (${CURRENT.INVESTOR_CHARTER})`)
    expect(body.message).toContain(`Privacy Policy (${CURRENT.PERSONAL_DATA})`)
    expect(body.data).toEqual({ missing: ['INVESTOR_CHARTER', 'PERSONAL_DATA'], documents: CURRENT })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)

    expect((await signViaApi(cookie, { documents: CURRENT })).status).toBe(200)
    expect((await call()).status).toBe(200)
    expect(await prisma.payment.count({ where: { userId } })).toBe(1)
  })

  it('is sent from /pay to /consents/accept, which records them as the page does and sends them back', async () => {
    const { userId, cookie } = await oldApiCustomer()
    const sent = await payRoute
      .loader(routeArgs(getRequest('/pay', cookie), {}, CONTEXT))
      .catch((thrown: unknown) => thrown)
    expect(sent).toBeInstanceOf(Response)
    expect((sent as Response).headers.get('Location')).toBe('/consents/accept?redirectTo=%2Fpay')

    const page = (await consentsRoute.loader(
      routeArgs(getRequest('/consents/accept?redirectTo=%2Fpay', cookie), {}, CONTEXT),
    )) as { documents: { kind: string; version: string }[] }
    expect(page.documents).toEqual([
      { kind: 'INVESTOR_CHARTER', version: CURRENT.INVESTOR_CHARTER, changed: false, changedOn: null },
      { kind: 'PERSONAL_DATA', version: CURRENT.PERSONAL_DATA, changed: false, changedOn: null },
    ])

    const post = (fields: Record<string, string>) =>
      consentsRoute.action(routeArgs(formRequest('/consents/accept', fields, cookie), {}, CONTEXT))
    const oneOnly = await post({ redirectTo: '/pay', 'acknowledge-INVESTOR_CHARTER': CURRENT.INVESTOR_CHARTER })
    expect(oneOnly).toMatchObject({ init: { status: 400 }, data: { error: expect.stringContaining('Privacy Policy') } })
    const accepted = (await post({
      redirectTo: '/pay',
      'acknowledge-INVESTOR_CHARTER': CURRENT.INVESTOR_CHARTER,
      'acknowledge-PERSONAL_DATA': CURRENT.PERSONAL_DATA,
    })) as Response
    expect(accepted.status).toBe(302)
    expect(accepted.headers.get('Location')).toBe('/pay')
    const records = await prisma.acceptance.findMany({
      where: { userId, kind: { in: ['INVESTOR_CHARTER', 'PERSONAL_DATA'] } },
    })
    expect(records.map((record) => ({ kind: record.kind, version: record.version, channel: record.channel }))).toEqual(
      expect.arrayContaining([
        { kind: 'INVESTOR_CHARTER', version: CURRENT.INVESTOR_CHARTER, channel: 'PAGE' },
        { kind: 'PERSONAL_DATA', version: CURRENT.PERSONAL_DATA, channel: 'PAGE' },
      ]),
    )
    // Back at /pay nothing is asked any more (with an empty cart, it sends the customer to the services).
    const again = await payRoute
      .loader(routeArgs(getRequest('/pay', cookie), {}, CONTEXT))
      .catch((thrown: unknown) => thrown)
    expect(again instanceof Response ? again.headers.get('Location') : null).not.toMatch(/consents/)
  })
})

describe('the retention job', () => {
  it("erases the PAN card image and the acceptances a minor left through the API, and keeps an adult's", async () => {
    const storageDeleted: string[] = []
    const storage: FileStorage = {
      kind: 'filesystem',
      put: () => Promise.resolve(),
      putFile: () => Promise.resolve(),
      get: () => Promise.resolve(null),
      delete: (key) => {
        storageDeleted.push(key)
        return Promise.resolve()
      },
    }
    // Left before the API refused them: a PAN card and an acceptance, with no date of birth, or a minor's.
    const leftovers = [await userWith({ dob: null }), await userWith({ dob: minorBirthDate() })]
    for (const { userId } of leftovers) {
      await agreementSigning().sign(
        userId,
        CONSENT_DOCUMENT_KINDS.map((kind) => DOCUMENTS[kind]),
        { ip: CLIENT_IP, userAgent: 'okhttp/4.12.0', channel: 'API' },
      )
    }
    const adult = await signedInUser({ completeProfile: true })
    const adultKey = (await prisma.user.findUniqueOrThrow({ where: { id: adult.userId } })).panCardKey

    const report = await eraseExpiredData(new Date(), { storage })
    // Other tests of this file leave such accounts too.
    expect(report.minorLeftovers).toBeGreaterThanOrEqual(2)
    for (const { userId } of leftovers) {
      const row = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
      expect(storageDeleted).toContain(`pan-cards/${row.phone.slice(-9)}/1.png`)
      expect(row).toMatchObject({ panCardKey: null, agreementAcceptedAt: null, agreementVersion: null, erasedAt: null })
      expect(await recordsOf(userId)).toEqual([])
      expect(
        await prisma.auditLog.findFirst({ where: { action: 'retention.erase', subjectId: userId } }),
      ).toMatchObject({ after: expect.objectContaining({ rule: 'minor-leftovers', panCardImageDeleted: true }) })
    }
    expect(storageDeleted).not.toContain(adultKey)
    expect(await recordsOf(adult.userId)).toHaveLength(CONSENT_DOCUMENT_KINDS.length)
    expect((await eraseExpiredData(new Date(), { storage })).minorLeftovers).toBe(0)
  })

  it("still refuses an early delete of an adult's acceptance in the database", async () => {
    const adult = await signedInUser({ completeProfile: true })
    await expect(prisma.acceptance.deleteMany({ where: { userId: adult.userId } })).rejects.toThrow(/append-only/)
  })
})
