import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { currentAgreement } from '~/server/account/agreement-document.server'
import { acknowledgementField } from '~/domain/consent'
import * as createOrder from '~/routes/api.v1/payments.create-order'
import * as currentUser from '~/routes/api.v1/users.current-user'
import * as manualPayment from '~/routes/api.v1/payments.manual-payment'
import * as payRoute from '~/routes/pay'
import * as subscriptionsRoute from '~/routes/subscriptions'
import * as endRoute from '~/routes/subscriptions.end'
import * as acceptRoute from '~/routes/terms.accept'
import * as changesRoute from '~/routes/terms-and-conditions.changes'
import { loader as rootLoader } from '~/root'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { publishCurrentTerms, sendTermsNotices, TermsPublicationError } from '~/server/account/terms-versions.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'
import { formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { ASHA_RAO, uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// One database for this file: the tests run in order, from publication to enforcement.
const DAY_MS = 86_400_000
const AGREEMENT = currentAgreement(businessDetails)
const OLD_VERSION = 'agreement-0ld0ld0ld0ld'
const OLD_TEXT = AGREEMENT.text.replace(/\n[^\n]+\n/, '\nA paragraph the new version rewrites.\n')

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    const value = await promise
    if (value instanceof Response) return value
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a response')
}

async function createOrderStatus(cookie: string, serviceId: string) {
  const response = await createOrder.action(
    routeArgs(
      jsonRequest(
        '/api/v1/payments/create-order',
        {
          amount: 2999,
          currency: 'INR',
          receipt: 'ABCPE1234F',
          notes: { number: '+919876543210', details: '{}', cart: JSON.stringify([serviceId]) },
        },
        cookie,
      ),
    ),
  )
  return { status: response.status, body: (await response.json()) as { message: string } }
}

/** The API's users/current-user answer's terms: what an app shows the customer. */
async function apiTerms(cookie: string) {
  const response = await currentUser.loader(routeArgs(getRequest('/api/v1/users/current-user', cookie)))
  expect(response.status).toBe(200)
  const body = (await response.json()) as { data: { currentUser: { terms: unknown } } }
  return body.data.currentUser.terms
}

async function makeCodeVersionInForce() {
  await prisma.termsVersion.update({
    where: { version: AGREEMENT.version },
    data: { publishedAt: new Date(Date.now() - 20 * DAY_MS), effectiveFrom: new Date(Date.now() - 5 * DAY_MS) },
  })
}

describe('a new version of the terms', () => {
  it('publishing refuses an effective date inside the 15 days, then records the version effective 15 days on', async () => {
    const now = new Date(Date.now() - 5 * DAY_MS)
    await expect(publishCurrentTerms(now, new Date(now.getTime() + 14 * DAY_MS))).rejects.toBeInstanceOf(
      TermsPublicationError,
    )
    expect(await prisma.termsVersion.count()).toBe(0)
    // The version before it, in force for a while.
    await prisma.termsVersion.create({
      data: {
        version: OLD_VERSION,
        textSha256: 'old',
        text: OLD_TEXT,
        publishedAt: new Date(Date.now() - 90 * DAY_MS),
        effectiveFrom: new Date(Date.now() - 70 * DAY_MS),
      },
    })
    const published = await publishCurrentTerms(now, undefined)
    expect(published.published).toBe(true)
    expect(published.version.effectiveFrom.getTime() - published.version.publishedAt.getTime()).toBe(15 * DAY_MS)
    const row = await prisma.termsVersion.findUniqueOrThrow({ where: { version: AGREEMENT.version } })
    expect(row.text).toBe(AGREEMENT.text)
    expect(row.textSha256).toBe(AGREEMENT.textSha256)
    // A second start (or instance) with the same text keeps the dates.
    expect((await publishCurrentTerms(new Date(), undefined)).published).toBe(false)
    // The database refuses a shorter notice whoever writes it.
    await expect(
      prisma.termsVersion.create({
        data: { version: 'agreement-short', textSha256: 'x', text: 'x', publishedAt: now, effectiveFrom: now },
      }),
    ).rejects.toThrow()
  })

  it('before the effective date the old version is enforced: the banner shows, paying is not gated', async () => {
    const service = await createService('Equity', 299_900, 30)
    const customer = await signedInUser({ completeProfile: true, acceptedTermsVersion: OLD_VERSION })
    const root = (await rootLoader(routeArgs(getRequest('/services', customer.cookie)))) as unknown as {
      data: { termsBanner: { version: string; inForce: boolean } | null }
    }
    expect(root.data.termsBanner).toMatchObject({ version: AGREEMENT.version, inForce: false })
    expect(await apiTerms(customer.cookie)).toEqual({
      accepted: OLD_VERSION,
      pending: {
        version: AGREEMENT.version,
        effectiveFrom: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        requiredToPay: false,
        text: '/terms-and-conditions',
        changes: '/terms-and-conditions/changes',
      },
    })
    const { status } = await createOrderStatus(customer.cookie, service.id)
    expect(status).toBe(200)
    // The customer who accepted the current text sees no banner.
    const upToDate = await signedInUser({ completeProfile: true })
    const rootUpToDate = (await rootLoader(routeArgs(getRequest('/services', upToDate.cookie)))) as unknown as {
      data: { termsBanner: unknown }
    }
    expect(rootUpToDate.data.termsBanner).toBeNull()
    expect(await apiTerms(upToDate.cookie)).toEqual({ accepted: AGREEMENT.version, pending: null })
    // The change summary: the rewritten paragraph removed, the new one added.
    const { change } = await changesRoute.loader(routeArgs(getRequest('/terms-and-conditions/changes')))
    expect(change?.before?.version).toBe(OLD_VERSION)
    expect(change?.lines).toContainEqual({ kind: 'removed', text: 'A paragraph the new version rewrites.' })
    expect(change?.lines.some((line) => line.kind === 'added')).toBe(true)
  })

  it('sends the announcement once per customer, even when the job runs twice at once, and none to a closed account', async () => {
    // Addresses of their own: the sample customer's is shared by the other tests' customers.
    const customer = await signedInUser({
      completeProfile: true,
      acceptedTermsVersion: OLD_VERSION,
      details: { ...ASHA_RAO, pan: uniquePan(), email: `notice-${randomUUID()}@example.in` },
    })
    const upToDate = await signedInUser({
      completeProfile: true,
      details: { ...ASHA_RAO, pan: uniquePan(), email: `current-${randomUUID()}@example.in` },
    })
    const closed = await signedInUser({
      completeProfile: true,
      acceptedTermsVersion: OLD_VERSION,
      details: { ...ASHA_RAO, pan: uniquePan(), email: `closed-${randomUUID()}@example.in` },
    })
    await prisma.user.update({ where: { id: closed.userId }, data: { closedAt: new Date() } })
    const [email, upToDateEmail, closedEmail] = await Promise.all(
      [customer, upToDate, closed].map(
        async ({ userId }) => (await prisma.user.findUniqueOrThrow({ where: { id: userId } })).email!,
      ),
    )
    await Promise.all([sendTermsNotices(), sendTermsNotices()])
    await sendTermsNotices()
    const sent = (await queuedEmails(email!)).filter((mail) => mail.subject.includes(AGREEMENT.version))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toContain('/terms-and-conditions/changes')
    expect(sent[0]!.userId).toBe(customer.userId) // dropped at sending if the account closes meanwhile
    expect((await queuedEmails(closedEmail!)).filter((mail) => mail.subject.includes(AGREEMENT.version))).toEqual([])
    expect(
      (await queuedEmails(upToDateEmail!)).filter((mail) => mail.subject.includes(AGREEMENT.version)),
    ).toHaveLength(0)
  })

  it('from the effective date every paying path asks for the acceptance; ending a subscription does not', async () => {
    await makeCodeVersionInForce()
    const service = await createService('Swing', 299_900, 30)
    const customer = await signedInUser({ completeProfile: true, acceptedTermsVersion: OLD_VERSION })

    const order = await createOrderStatus(customer.cookie, service.id)
    expect(order.status).toBe(403)
    expect(order.body.message).toContain(AGREEMENT.version)
    expect(order.body.message).toContain('/terms-and-conditions')
    expect(await apiTerms(customer.cookie)).toMatchObject({
      accepted: OLD_VERSION,
      pending: { version: AGREEMENT.version, requiredToPay: true },
    })
    const manual = await manualPayment.action(
      routeArgs(
        jsonRequest('/api/v1/payments/manual-payment', { cart: JSON.stringify([service.id]) }, customer.cookie),
      ),
    )
    expect(manual.status).toBe(403)
    expect(((await manual.json()) as { message: string }).message).toContain(AGREEMENT.version)

    const pay = await thrown(payRoute.loader(routeArgs(getRequest('/pay', customer.cookie))))
    expect(pay.status).toBe(302)
    expect(pay.headers.get('Location')).toBe('/terms/accept?redirectTo=%2Fpay')
    const payAction = await thrown(
      payRoute.action(routeArgs(formRequest('/pay', { intent: 'pay-manually' }, customer.cookie))),
    )
    expect(payAction.headers.get('Location')).toMatch(/^\/terms\/accept/)
    const subscriptionsAction = await thrown(
      subscriptionsRoute.action(routeArgs(formRequest('/subscriptions', { intent: 'pay-again' }, customer.cookie))),
    )
    expect(subscriptionsAction.headers.get('Location')).toMatch(/^\/terms\/accept/)

    // Ending a subscription (with its refund) stays open.
    const paidAt = new Date(Date.now() - 10 * DAY_MS)
    const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], {
      method: 'MANUAL',
      createdAt: paidAt,
    })
    await markPaymentPaid(payment.id, { source: 'admin', paidAt })
    const endPath = `/subscriptions/${service.id}/end`
    const preview = await endRoute.loader(routeArgs(getRequest(endPath, customer.cookie), { serviceId: service.id }))
    expect(preview).toMatchObject({ serviceName: service.name })
    // The acceptance page offers it.
    const page = await acceptRoute.loader(routeArgs(getRequest('/terms/accept?redirectTo=%2Fpay', customer.cookie)))
    expect(page.asked).toMatchObject({ version: AGREEMENT.version, inForce: true })
    expect(page.subscriptions).toContainEqual(expect.objectContaining({ serviceId: service.id }))
  })

  it('a stale acceptance is refused with the current version; accepting the current one lifts the gate', async () => {
    await makeCodeVersionInForce()
    const service = await createService('Options', 299_900, 30)
    const customer = await signedInUser({ completeProfile: true, acceptedTermsVersion: OLD_VERSION })
    const before = await prisma.acceptance.count({ where: { userId: customer.userId } })

    // data(): React Router's DataWithResponseInit.
    const staleResult = (await acceptRoute.action(
      routeArgs(formRequest('/terms/accept', { [acknowledgementField('TERMS')]: OLD_VERSION }, customer.cookie)),
    )) as unknown as { init: { status: number }; data: { error: string; currentVersion: string } }
    expect(staleResult.init.status).toBe(409)
    expect(staleResult.data.currentVersion).toBe(AGREEMENT.version)
    expect(await prisma.acceptance.count({ where: { userId: customer.userId } })).toBe(before)

    const accepted = await thrown(
      acceptRoute.action(
        routeArgs(
          formRequest(
            '/terms/accept',
            { [acknowledgementField('TERMS')]: AGREEMENT.version, redirectTo: '/pay' },
            customer.cookie,
          ),
        ),
      ),
    )
    expect(accepted.headers.get('Location')).toBe('/pay')
    const record = await prisma.acceptance.findFirstOrThrow({
      where: { userId: customer.userId, version: AGREEMENT.version },
      orderBy: { acceptedAt: 'desc' },
    })
    expect(record).toMatchObject({ kind: 'TERMS', channel: 'PAGE', textSha256: AGREEMENT.textSha256 })
    expect((await createOrderStatus(customer.cookie, service.id)).status).toBe(200)
  })
})
