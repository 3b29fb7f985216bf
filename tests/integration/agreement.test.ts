import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { currentAgreement } from '~/content/legal/agreement.server'
import { businessDetails } from '~/server/business.server'
import * as setAgreementRoute from '~/routes/api.v1/users.set-agreement'
import { action } from '~/routes/details'
import { agreementSigning } from '~/server/agreement-signing.server'
import { prisma } from '~/server/db.server'
import { createSession } from '~/server/session.server'
import { formRequest, routeArgs } from '../support/route-requests'

async function userAtAgreementStep() {
  return prisma.user.create({
    data: {
      phone: '+919811122233',
      name: 'asha rao',
      email: 'asha@example.in',
      dateOfBirth: new Date('2001-05-17'),
      pan: 'ABCPE1234F',
      panCardKey: 'pan-cards/x/1.png',
    },
  })
}

async function accept(cookie: string, version: string) {
  const request = formRequest('/details?redirectTo=%2Fpay', { intent: 'accept-agreement', version }, cookie)
  return action(routeArgs(request, {}, { cspNonce: '', clientIp: '203.0.113.9' }))
}

const AGREEMENT = currentAgreement(businessDetails)

describe('accepting the agreement', () => {
  it('has a version that is a hash of the exact text', () => {
    expect(AGREEMENT.textSha256).toBe(createHash('sha256').update(AGREEMENT.text).digest('hex'))
    expect(AGREEMENT.version).toBe(`agreement-${AGREEMENT.textSha256.slice(0, 12)}`)
  })

  it('records when, which version, from where and the hash of the text, then goes to the remembered page', async () => {
    const user = await userAtAgreementStep()
    const before = Date.now()
    const response = (await accept(await createSession(user.id), AGREEMENT.version)) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/pay')
    const saved = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(saved.agreementVersion).toBe(AGREEMENT.version)
    expect(saved.agreementTextSha256).toBe(AGREEMENT.textSha256)
    expect(saved.agreementIp).toBe('203.0.113.9')
    expect(saved.agreementAcceptedAt!.getTime()).toBeGreaterThanOrEqual(before)
  })

  it('refuses an acceptance of another version of the text and records nothing', async () => {
    await prisma.user.deleteMany()
    const user = await userAtAgreementStep()
    const result = await accept(await createSession(user.id), 'agreement-000000000000')
    expect(result).toMatchObject({ init: { status: 409 } })
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).agreementAcceptedAt).toBeNull()
  })
})

describe('the agreement-signing hook', () => {
  it('is the recorded click-accept unless configured otherwise', async () => {
    expect(agreementSigning().method).toBe('click-accept')
    expect(agreementSigning({ AGREEMENT_SIGNING: 'click-accept' }).method).toBe('click-accept')
    await prisma.user.deleteMany()
    const user = await userAtAgreementStep()
    const signedAt = new Date('2026-01-02T03:04:05Z')
    await agreementSigning().sign(
      user.id,
      { version: AGREEMENT.version, textSha256: AGREEMENT.textSha256, ip: '198.51.100.7' },
      signedAt,
    )
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      agreementAcceptedAt: signedAt,
      agreementVersion: AGREEMENT.version,
      agreementTextSha256: AGREEMENT.textSha256,
      agreementIp: '198.51.100.7',
    })
  })
})

describe('POST /api/v1/users/set-agreement', () => {
  const signViaApi = async (cookie: string, body?: unknown) =>
    (await setAgreementRoute.action({
      request: new Request('http://localhost/api/v1/users/set-agreement', {
        method: 'POST',
        headers: { Cookie: cookie.split(';')[0]!, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
      params: {},
      context: { cspNonce: '', clientIp: '203.0.113.9' },
    } as never)) as Response

  it('refuses a version that is no longer current, as /details does, and records nothing', async () => {
    await prisma.user.deleteMany()
    const user = await userAtAgreementStep()
    const response = await signViaApi(await createSession(user.id), { version: 'agreement-000000000000' })
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({ data: { version: AGREEMENT.version } })
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).agreementAcceptedAt).toBeNull()
  })

  it('signs the version the client showed, or without one (the original clients send no body) the current one', async () => {
    await prisma.user.deleteMany()
    const user = await userAtAgreementStep()
    const cookie = await createSession(user.id)
    const shown = await signViaApi(cookie, { version: AGREEMENT.version })
    expect(shown.status).toBe(200)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).agreementVersion).toBe(AGREEMENT.version)
    expect((await signViaApi(cookie)).status).toBe(200)
  })
})
