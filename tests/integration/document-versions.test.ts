import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { acknowledgementField } from '~/domain/consent'
import { loader as rootLoader } from '~/root'
import * as consentsAccept from '~/routes/consents.accept'
import * as payRoute from '~/routes/pay'
import * as privacyPage from '~/routes/privacy-policy'
import * as termsPage from '~/routes/terms-and-conditions'
import * as dataJson from '~/routes/account.data-json'
import { consentDocuments, currentConsentDocuments } from '~/server/account/agreement-document.server'
import { acknowledgementsDueToPay } from '~/server/account/acceptances.server'
import { publishCurrentDocuments, sendDocumentNotices } from '~/server/account/document-versions.server'
import { readOfficialTexts } from '~/server/account/official-texts.server'
import { publishCurrentTerms } from '~/server/account/terms-versions.server'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { EnvError } from '~/server/env.server'
import { queuedEmails } from '../support/queued-emails'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// The Privacy Policy, the Investor Charter and the MITC are versioned like the terms (issue 28 item 3, decision 053).
// One database for this file: the tests run in order, from publication to re-acknowledgement.
const DOCUMENTS = currentConsentDocuments(businessDetails)
const PUBLISHED_AT = new Date('2026-11-29T06:00:00Z')

type RootData = { data: { documentsBanner: { title: string; version: string; publishedOn: string | null }[] } }

async function rootBanner(cookie: string) {
  return ((await rootLoader(routeArgs(getRequest('/services', cookie)))) as unknown as RootData).data.documentsBanner
}

/** Where a route sends the browser, whether it returned or threw its redirect. */
async function redirectedTo(promise: Promise<unknown>): Promise<string | null> {
  try {
    const value = await promise
    return value instanceof Response ? value.headers.get('Location') : null
  } catch (error) {
    if (error instanceof Response) return error.headers.get('Location')
    throw error
  }
}

describe('versions of the Privacy Policy, the Investor Charter and the MITC', () => {
  it('records each current text once, at the first start, and dates the pages from it', async () => {
    const recorded = await publishCurrentDocuments(PUBLISHED_AT)
    expect(recorded.map((version) => version.kind).sort()).toEqual(['INVESTOR_CHARTER', 'MITC', 'PERSONAL_DATA'])
    // A later start keeps the recorded date.
    await publishCurrentDocuments(new Date(PUBLISHED_AT.getTime() + 86_400_000))
    const rows = await prisma.documentVersion.findMany({ select: { version: true, publishedAt: true, text: true } })
    expect(rows).toHaveLength(3)
    expect(rows.every((row) => row.publishedAt.getTime() === PUBLISHED_AT.getTime())).toBe(true)
    expect(rows.find((row) => row.version === DOCUMENTS.PERSONAL_DATA.version)?.text).toBe(DOCUMENTS.PERSONAL_DATA.text)

    const privacy = await privacyPage.loader()
    expect(privacy).toMatchObject({ version: DOCUMENTS.PERSONAL_DATA.version, updatedOn: '29 November 2026' })
    // The date is not part of the versioned text: a new date alone is no new version.
    expect(DOCUMENTS.PERSONAL_DATA.text).not.toContain('Last updated')
  })

  it("prints the terms' effective date from the recorded version, not a constant", async () => {
    const published = await publishCurrentTerms(PUBLISHED_AT, new Date('2026-12-20T00:00:00+05:30'))
    const before = (await termsPage.loader(routeArgs(getRequest('/terms-and-conditions')))) as unknown as {
      document: { dateLine?: string } | null
    }
    expect(published.version.effectiveFrom.toISOString()).toBe('2026-12-19T18:30:00.000Z')
    expect(before.document?.dateLine).toBe('Effective date: 20 December 2026')
    expect(DOCUMENTS.TERMS.text).not.toMatch(/Effective date/)
  })

  it('asks a customer who consented to an earlier Privacy Policy to consent again before paying, with a banner', async () => {
    const customer = await signedInUser({ completeProfile: true, acknowledgedEarlier: ['PERSONAL_DATA'] })
    expect(await acknowledgementsDueToPay(customer.userId)).toEqual([{ kind: 'PERSONAL_DATA', changed: true }])
    expect(await rootBanner(customer.cookie)).toEqual([
      { title: 'Privacy Policy', version: DOCUMENTS.PERSONAL_DATA.version, publishedOn: '29 November 2026' },
    ])
    // The paying pages send them to acknowledge it.
    expect(await redirectedTo(payRoute.loader(routeArgs(getRequest('/pay', customer.cookie))))).toMatch(
      /^\/consents\/accept\?redirectTo=/,
    )

    // An untouched form is refused and records nothing.
    const refused = (await consentsAccept.action(
      routeArgs(formRequest('/consents/accept', { redirectTo: '/account' }, customer.cookie)),
    )) as unknown as { init: { status: number } }
    expect(refused.init.status).toBe(400)

    const accepted = await redirectedTo(
      consentsAccept.action(
        routeArgs(
          formRequest(
            '/consents/accept',
            { redirectTo: '/account', [acknowledgementField('PERSONAL_DATA')]: DOCUMENTS.PERSONAL_DATA.version },
            customer.cookie,
          ),
        ),
      ),
    )
    expect(accepted).toBe('/account')
    const given = await prisma.acceptance.findMany({
      where: { userId: customer.userId, kind: 'PERSONAL_DATA' },
      orderBy: { acceptedAt: 'asc' },
      select: { version: true, textSha256: true, channel: true },
    })
    expect(given.at(-1)).toEqual({
      version: DOCUMENTS.PERSONAL_DATA.version,
      textSha256: DOCUMENTS.PERSONAL_DATA.textSha256,
      channel: 'PAGE',
    })
    expect(await acknowledgementsDueToPay(customer.userId)).toEqual([])
    expect(await rootBanner(customer.cookie)).toEqual([])
  })

  it('does not ask a customer who acknowledged the current texts, nor for an MITC only accepted within the terms', async () => {
    const upToDate = await signedInUser({ completeProfile: true })
    expect(await acknowledgementsDueToPay(upToDate.userId)).toEqual([])
    expect(await rootBanner(upToDate.cookie)).toEqual([])
    const noMitc = await signedInUser({
      completeProfile: true,
      acknowledged: ['TERMS', 'CONSENT_STATEMENT', 'INVESTOR_CHARTER', 'PERSONAL_DATA'],
    })
    expect(await acknowledgementsDueToPay(noMitc.userId)).toEqual([])
  })

  it('e-mails each customer who acknowledged an earlier text once, with its date', async () => {
    const charter = await signedInUser({ completeProfile: true, acknowledgedEarlier: ['INVESTOR_CHARTER'] })
    const { email } = await prisma.user.findUniqueOrThrow({ where: { id: charter.userId }, select: { email: true } })
    const upToDate = await signedInUser({ completeProfile: true })
    const queued = await sendDocumentNotices(new Date())
    expect(queued).toBeGreaterThanOrEqual(1)
    // Every customer of this file shares Asha Rao's address: the notices are told apart by their userId.
    const noticesTo = async (userId: string) =>
      (await queuedEmails(email!)).filter((sent) => sent.template === 'document-changed' && sent.userId === userId)
    const emails = await noticesTo(charter.userId)
    expect(emails).toHaveLength(1)
    expect(emails[0]!.subject).toBe('Our Investor Charter changed on 29 November 2026')
    expect(emails[0]!.body).toContain(DOCUMENTS.INVESTOR_CHARTER.version)
    // Once: a second run (or a second instance) queues nothing more for them.
    await sendDocumentNotices(new Date())
    expect(await noticesTo(charter.userId)).toHaveLength(1)
    expect(await noticesTo(upToDate.userId)).toEqual([])
  })
})

describe('official texts (OFFICIAL_TEXTS_DIR)', () => {
  const folder = () => mkdtempSync(join(tmpdir(), 'official-texts-'))

  it('replaces our summary with the official text, as a new version', () => {
    const dir = folder()
    writeFileSync(
      join(dir, 'investor-charter.txt'),
      'Investor Charter for Research Analysts\n\nA. Vision\n\n- Invest with knowledge\n- Invest with safety\n',
    )
    const official = readOfficialTexts(dir)
    expect(Object.keys(official)).toEqual(['INVESTOR_CHARTER'])
    const documents = consentDocuments(businessDetails, official)
    expect(documents.INVESTOR_CHARTER.version).not.toBe(DOCUMENTS.INVESTOR_CHARTER.version)
    expect(documents.INVESTOR_CHARTER.document.intro).toEqual([
      'Investor Charter for Research Analysts',
      'A. Vision',
      { list: ['Invest with knowledge', 'Invest with safety'] },
    ])
    expect(documents.INVESTOR_CHARTER.text).not.toContain('our summary')
    // The MITC stays ours, and says it is our summary until then.
    expect(documents.MITC.version).toBe(DOCUMENTS.MITC.version)
    expect(DOCUMENTS.MITC.text).toContain('This page is our summary of the standard MITC')
    expect(DOCUMENTS.INVESTOR_CHARTER.text).toContain('This page is our summary of the Investor Charter')
  })

  it.each([
    ['a folder that is not there', (dir: string) => join(dir, 'missing'), /is not a readable folder$/],
    [
      'an unknown file (a misspelt name)',
      (dir: string) => (writeFileSync(join(dir, 'investor_charter.txt'), 'text'), dir),
      /holds investor_charter\.txt; only investor-charter\.txt and mitc\.txt are read/,
    ],
    ['an empty file', (dir: string) => (writeFileSync(join(dir, 'mitc.txt'), '  \n'), dir), /mitc\.txt is empty$/],
    [
      'a file that is not text',
      (dir: string) => (writeFileSync(join(dir, 'mitc.txt'), Buffer.from([0xff, 0xfe, 0x00, 0x41])), dir),
      /mitc\.txt is not UTF-8 text$/,
    ],
  ])('stops the start for %s, naming the variable', (_, prepare, message) => {
    const dir = prepare(folder())
    expect(() => readOfficialTexts(dir)).toThrow(EnvError)
    expect(() => readOfficialTexts(dir)).toThrow(/^Invalid environment variable OFFICIAL_TEXTS_DIR: /)
    expect(() => readOfficialTexts(dir)).toThrow(message)
  })
})

describe('who receives the data (issue 28 item 6)', () => {
  it('names the configured recipients in the Privacy Policy and in the data download', async () => {
    const { dataRecipients } = businessDetails
    for (const name of Object.values(dataRecipients)) expect(DOCUMENTS.PERSONAL_DATA.text).toContain(name)
    const customer = await signedInUser({ completeProfile: true })
    const response = (await dataJson.loader(routeArgs(getRequest('/account/data.json', customer.cookie)))) as Response
    const data = (await response.json()) as { dataRecipients: { name: string; role: string }[] }
    expect(data.dataRecipients.map((recipient) => recipient.name)).toEqual([
      ...Object.values(dataRecipients),
      'SEBI, the RAASB (BSE), auditors, courts and other authorities',
    ])
  })
})
