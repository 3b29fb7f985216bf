import { createHash, randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { currentAgreement, currentConsentDocuments } from '~/server/account/agreement-document.server'
import { documentText, type LegalDocument } from '~/content/legal/document'
import { acknowledgementField, CONSENT_DOCUMENT_KINDS, type ConsentDocumentKind } from '~/domain/consent'
import * as customerRoute from '~/routes/admin/customer'
import * as setAgreementRoute from '~/routes/api.v1/users.set-agreement'
import * as agreementRoute from '~/routes/api.v1/agreement'
import { action, loader } from '~/routes/details'
import { agreementSigning } from '~/server/account/agreement.server'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { createSession } from '~/server/session.server'
import { queuedEmails } from '../support/queued-emails'
import { getRequest, routeArgs } from '../support/route-requests'
import { uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

const AGREEMENT = currentAgreement(businessDetails)
const DOCUMENTS = currentConsentDocuments(businessDetails)
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0'

async function userAtAgreementStep() {
  const digits = String(randomInt(0, 1e9)).padStart(9, '0')
  return prisma.user.create({
    data: {
      phone: `+919${digits}`,
      name: 'asha rao',
      email: `asha${digits}@example.in`,
      dateOfBirth: new Date('2001-05-17'),
      pan: uniquePan(),
      panCardKey: 'pan-cards/x/1.png',
    },
  })
}

/** Every box ticked, each sending the version shown (overridden by `versions`); `leaveOut` unticked. */
function ticks(versions: Partial<Record<ConsentDocumentKind, string>> = {}, leaveOut: ConsentDocumentKind[] = []) {
  const fields: Record<string, string> = { intent: 'accept-agreement' }
  for (const kind of CONSENT_DOCUMENT_KINDS) {
    if (!leaveOut.includes(kind)) fields[acknowledgementField(kind)] = versions[kind] ?? DOCUMENTS[kind].version
  }
  return fields
}

async function accept(cookie: string, fields: Record<string, string>) {
  const request = new Request('http://localhost/details?redirectTo=%2Fpay', {
    method: 'POST',
    headers: {
      Cookie: cookie.split(';')[0]!,
      'Content-Type': 'application/x-www-form-urlencoded',
      'User-Agent': BROWSER,
    },
    body: new URLSearchParams(fields),
  })
  return action(routeArgs(request, {}, { cspNonce: '', clientIp: '203.0.113.9' }))
}

/** The onboarding documents' records (a mandate's consent, kind AUTOPAY_MANDATE, is not one). */
const recordsOf = async (userId: string) =>
  (
    await prisma.acceptance.findMany({
      where: { userId, kind: { in: [...CONSENT_DOCUMENT_KINDS] } },
      orderBy: [{ acceptedAt: 'asc' }, { kind: 'asc' }],
    })
  ).map((row) => ({ ...row, kind: row.kind as (typeof CONSENT_DOCUMENT_KINDS)[number] }))

describe('the onboarding documents', () => {
  it('are each versioned by a hash of their exact text; the terms keep the agreement version', () => {
    expect(AGREEMENT.textSha256).toBe(createHash('sha256').update(AGREEMENT.text).digest('hex'))
    expect(AGREEMENT.version).toBe(`agreement-${AGREEMENT.textSha256.slice(0, 12)}`)
    expect(DOCUMENTS.TERMS.version).toBe(AGREEMENT.version)
    for (const document of Object.values(DOCUMENTS)) {
      expect(document.textSha256).toBe(createHash('sha256').update(document.text).digest('hex'))
      expect(document.version).toMatch(/^[a-z]+-[0-9a-f]{12}$/)
    }
    expect(DOCUMENTS.MITC.text).toContain('Refund on early termination')
    expect(DOCUMENTS.INVESTOR_CHARTER.text).toMatch(/Investor Charter/)
    expect(DOCUMENTS.PERSONAL_DATA.text).toMatch(/^Privacy Policy/)
  })
})

describe('accepting at the wizard', () => {
  it('records one acceptance per document (version, hash, time, address, browser, page), then goes on', async () => {
    const user = await userAtAgreementStep()
    const before = Date.now()
    const response = (await accept(await createSession(user.id), ticks())) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/pay')
    const records = await recordsOf(user.id)
    expect(records.map((record) => record.kind).sort()).toEqual([...CONSENT_DOCUMENT_KINDS].sort())
    for (const record of records) {
      expect(record).toMatchObject({
        version: DOCUMENTS[record.kind].version,
        textSha256: DOCUMENTS[record.kind].textSha256,
        ip: '203.0.113.9',
        userAgent: BROWSER,
        channel: 'PAGE',
      })
      expect(record.acceptedAt.getTime()).toBeGreaterThanOrEqual(before)
    }
    // The users columns cache the terms' record: the profile is complete.
    const saved = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(saved).toMatchObject({
      agreementVersion: AGREEMENT.version,
      agreementTextSha256: AGREEMENT.textSha256,
      agreementIp: '203.0.113.9',
      agreementAcceptedAt: records[0]!.acceptedAt,
    })
  })

  it('e-mails a copy of every document, with its version and the time, once', async () => {
    const user = await userAtAgreementStep()
    await accept(await createSession(user.id), ticks())
    const emails = await queuedEmails(user.email!)
    expect(emails).toHaveLength(1)
    const [email] = emails
    expect(email!.subject).toBe('Your copy of the terms you accepted')
    for (const kind of ['TERMS', 'MITC', 'CONSENT_STATEMENT', 'INVESTOR_CHARTER'] as const) {
      expect(email!.body).toContain(DOCUMENTS[kind].version)
      expect(email!.body).toContain(DOCUMENTS[kind].text)
    }
    expect(email!.body).toMatch(/accepted \d{2}-\d{2}-\d{4} \d{2}:\d{2} IST/)
  })

  it('refuses a form with a box left unticked, naming it, and records nothing', async () => {
    const user = await userAtAgreementStep()
    const result = await accept(await createSession(user.id), ticks({}, ['PERSONAL_DATA']))
    expect(result).toMatchObject({
      init: { status: 400 },
      data: { agreementError: 'Tick each box to continue. Not yet acknowledged: Privacy Policy.' },
    })
    expect(await recordsOf(user.id)).toEqual([])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).agreementAcceptedAt).toBeNull()
  })

  it('refuses a stale version, records nothing, and the page then shows the current one', async () => {
    const user = await userAtAgreementStep()
    const cookie = await createSession(user.id)
    const result = await accept(cookie, ticks({ MITC: 'mitc-000000000000' }))
    expect(result).toMatchObject({
      init: { status: 409 },
      data: { agreementError: expect.stringContaining('updated while you were reading them: Most Important Terms') },
    })
    expect(await recordsOf(user.id)).toEqual([])
    const page = (await loader(routeArgs(getRequest('/details', cookie)))) as {
      agreement: { documents: { kind: ConsentDocumentKind; version: string }[] }
    }
    expect(page.agreement.documents).toContainEqual({ kind: 'MITC', version: DOCUMENTS.MITC.version })
  })

  it('shows at the agreement step the very terms and consent statement its version hashes', async () => {
    const cookie = await createSession((await userAtAgreementStep()).id)
    const page = (await loader(routeArgs(getRequest('/details', cookie)))) as {
      agreement: { terms: LegalDocument; consentStatement: string[] }
    }
    expect(documentText(page.agreement.terms)).toBe(AGREEMENT.text)
    expect(page.agreement.consentStatement).toEqual(AGREEMENT.consentStatement)
  })

  it('records both of two acceptances racing, in full, and completes the profile (and e-mails) once', async () => {
    const user = await userAtAgreementStep()
    const cookie = await createSession(user.id)
    const answers = await Promise.all([accept(cookie, ticks()), accept(cookie, ticks())])
    expect(answers.map((answer) => (answer as Response).status)).toEqual([302, 302])
    const records = await recordsOf(user.id)
    expect(records).toHaveLength(2 * CONSENT_DOCUMENT_KINDS.length)
    for (const kind of CONSENT_DOCUMENT_KINDS) {
      expect(records.filter((record) => record.kind === kind)).toHaveLength(2)
    }
    expect(await queuedEmails(user.email!)).toHaveLength(1)
    const saved = await prisma.user.findUniqueOrThrow({ where: { id: user.id } })
    expect(saved.agreementVersion).toBe(AGREEMENT.version)
    expect(records.map((record) => record.acceptedAt.getTime())).toContain(saved.agreementAcceptedAt!.getTime())
  })
})

describe('the acceptances table', () => {
  it('refuses any update, an early delete and a truncate, whoever asks', async () => {
    const user = await userAtAgreementStep()
    await accept(await createSession(user.id), ticks())
    const [record] = await recordsOf(user.id)
    await expect(
      prisma.acceptance.update({ where: { id: record!.id }, data: { version: 'agreement-tampered' } }),
    ).rejects.toThrow(/append-only/)
    await expect(prisma.acceptance.delete({ where: { id: record!.id } })).rejects.toThrow(/append-only/)
    await expect(prisma.$executeRawUnsafe('TRUNCATE acceptances')).rejects.toThrow(/append-only/)
    // Nor does deleting the customer take them along.
    await expect(prisma.user.delete({ where: { id: user.id } })).rejects.toThrow()
    expect(await recordsOf(user.id)).toHaveLength(CONSENT_DOCUMENT_KINDS.length)
  })
})

describe('the agreement-signing hook', () => {
  it('is the recorded click-accept unless configured otherwise', async () => {
    expect(agreementSigning().method).toBe('click-accept')
    expect(agreementSigning({ AGREEMENT_SIGNING: 'click-accept' }).method).toBe('click-accept')
    const user = await userAtAgreementStep()
    const signedAt = new Date('2026-01-02T03:04:05Z')
    const signed = await agreementSigning().sign(
      user.id,
      [DOCUMENTS.TERMS],
      { ip: '198.51.100.7', userAgent: null, channel: 'PAGE' },
      signedAt,
    )
    expect(signed).toEqual({ completedProfile: true })
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
        headers: {
          Cookie: cookie.split(';')[0]!,
          'User-Agent': 'okhttp/4.12.0',
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
      params: {},
      context: { cspNonce: '', clientIp: '203.0.113.9' },
    } as never)) as Response

  // What set-agreement asks for and records: tests/integration/api-onboarding.test.ts.
  it('refuses the terms version alone, which no longer is the whole agreement, and records nothing', async () => {
    const user = await userAtAgreementStep()
    const response = await signViaApi(await createSession(user.id), { version: AGREEMENT.version })
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({
      data: { version: AGREEMENT.version, documents: { MITC: DOCUMENTS.MITC.version } },
    })
    expect(await recordsOf(user.id)).toEqual([])
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).agreementAcceptedAt).toBeNull()
  })

  it('GET /api/v1/agreement lists every document with its version and hash', async () => {
    const response = (await agreementRoute.loader({
      request: new Request('http://localhost/api/v1/agreement'),
      params: {},
      context: { cspNonce: '', clientIp: '203.0.113.9' },
    } as never)) as Response
    const body = (await response.json()) as {
      data: { version: string; documents: { kind: string; version: string }[] }
    }
    expect(body.data.version).toBe(AGREEMENT.version)
    expect(body.data.documents.map((document) => document.kind)).toEqual([...CONSENT_DOCUMENT_KINDS])
    expect(body.data.documents).toContainEqual(
      expect.objectContaining({
        kind: 'INVESTOR_CHARTER',
        version: DOCUMENTS.INVESTOR_CHARTER.version,
        path: '/investor-charter',
      }),
    )
  })
})

describe("the admin's customer page", () => {
  it('shows the acceptance history, newest first', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const customer = await signedInUser({ completeProfile: true })
    const page = (await customerRoute.loader(
      routeArgs(getRequest(`/admin/customers/${customer.userId}`, admin.cookie), { userId: customer.userId }),
    )) as { acceptances: { document: string; version: string; channel: string }[] }
    expect(page.acceptances).toHaveLength(CONSENT_DOCUMENT_KINDS.length)
    expect(page.acceptances).toContainEqual(
      expect.objectContaining({
        document: 'Investor Charter',
        version: DOCUMENTS.INVESTOR_CHARTER.version,
        channel: 'Page',
      }),
    )
  })
})
