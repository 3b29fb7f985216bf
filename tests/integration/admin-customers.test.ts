import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as customerRoute from '~/routes/admin/customer'
import * as panCardRoute from '~/routes/admin/customer-pan-card'
import * as customersRoute from '~/routes/admin/customers'
import { MS_PER_DAY } from '~/domain/dates'
import { customerForAdmin, grantSubscriptionAsAdmin, searchCustomers } from '~/server/admin/customers.server'
import { activeSubscriptions } from '~/server/payments/subscriptions.server'
import { prisma } from '~/server/db.server'
import { createSession } from '~/server/session.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'
import { uniquePan } from '../support/sample-customer'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'

async function person(role: 'ADMIN' | 'CUSTOMER' = 'CUSTOMER') {
  const digits = String(randomInt(0, 1e9)).padStart(9, '0')
  const user = await prisma.user.create({
    data: {
      phone: `+919${digits}`,
      role,
      name: `meera ${digits}`,
      email: `meera${digits}@example.in`,
      pan: uniquePan(),
      dateOfBirth: new Date('1990-04-01T00:00:00Z'),
    },
  })
  return { user, digits, cookie: (await createSession(user.id)).split(';')[0]! }
}

const args = (path: string, cookie: string | undefined, params: Record<string, string> = {}) =>
  routeArgs(getRequest(path, cookie), params)

describe('searchCustomers', () => {
  it('finds a customer by phone digits (with or without +91), name, e-mail or PAN, ignoring case', async () => {
    const { user, digits } = await person()
    for (const query of [
      digits,
      `+919${digits}`,
      `9${digits}`,
      `MEERA ${digits}`,
      `meera${digits}@EXAMPLE`,
      user.pan!.toLowerCase(),
    ]) {
      expect(
        (await searchCustomers(query)).rows.map((found) => found.id),
        query,
      ).toContain(user.id)
    }
    expect((await searchCustomers('xy')).rows).toEqual([])
  })

  it('matches % and _ as the characters themselves, not as wildcards', async () => {
    const tag = String(randomInt(0, 1e9)).padStart(9, '0')
    const underscore = await prisma.user.create({ data: { phone: `+918${tag}`, name: `A_B ${tag}` } })
    const lookalike = await prisma.user.create({ data: { phone: `+917${tag}`, name: `AxB ${tag}` } })
    const percent = await prisma.user.create({ data: { phone: `+916${tag}`, name: `50% off ${tag}` } })
    const found = async (query: string) => (await searchCustomers(query)).rows.map((customer) => customer.id)
    expect(await found(`A_B ${tag}`)).toEqual([underscore.id])
    expect(await found(`AxB ${tag}`)).toEqual([lookalike.id])
    expect(await found(`50% off ${tag}`)).toEqual([percent.id])
    expect(await found(`% ${tag}`)).toEqual([])
    expect(await found('%%')).toEqual([])
    expect(await found('__')).toEqual([])
    expect(await found(`\\ ${tag}`)).toEqual([])
  })
})

describe('customerForAdmin', () => {
  it("reports the KYC step still missing, and nothing for an id that is not a customer's", async () => {
    const { user } = await person()
    expect(await customerForAdmin(user.id)).toMatchObject({
      id: user.id,
      profileStep: 'pan-card',
      payments: [],
      subscriptions: [],
    })
    expect(await customerForAdmin('not-a-uuid')).toBeNull()
  })
})

describe('admin customer routes', () => {
  it('answer 404 without a session and for a customer', async () => {
    const { user, cookie } = await person()
    for (const sessionCookie of [undefined, cookie]) {
      await expect(customersRoute.loader(args('/admin/customers?q=meera', sessionCookie))).rejects.toMatchObject({
        init: { status: 404 },
      })
      await expect(
        customerRoute.loader(args(`/admin/customers/${user.id}`, sessionCookie, { userId: user.id })),
      ).rejects.toMatchObject({ init: { status: 404 } })
      await expect(
        panCardRoute.loader(args(`/admin/customers/${user.id}/pan-card`, sessionCookie, { userId: user.id })),
      ).rejects.toMatchObject({ init: { status: 404 } })
    }
  })

  it('show an admin the customer, and audit each view of the PAN card image', async () => {
    const admin = await person('ADMIN')
    const { user } = await person()
    await prisma.user.update({ where: { id: user.id }, data: { panCardKey: `pan-cards/${user.id}/missing.png` } })

    const page = await customerRoute.loader(args(`/admin/customers/${user.id}`, admin.cookie, { userId: user.id }))
    expect(page.customer).toMatchObject({
      phone: user.phone,
      dateOfBirth: '01-04-1990',
      hasPanCard: true,
      profileStatus: 'Agreement not accepted',
    })

    const image = await panCardRoute.loader(
      args(`/admin/customers/${user.id}/pan-card`, admin.cookie, { userId: user.id }),
    )
    expect(image.status).toBe(404) // the test stored no file; the access is still on record
    expect(
      await prisma.auditLog.findMany({
        where: { subjectId: user.id },
        orderBy: { id: 'asc' },
        select: { action: true, actorId: true },
      }),
    ).toEqual([
      { action: 'customer.page.view', actorId: admin.user.id },
      { action: 'customer.pan-card.view', actorId: admin.user.id },
    ])
  })

  it("record every admin view of the customer's page and show the trail there (who, when), not to the customer", async () => {
    const first = await person('ADMIN')
    const second = await person('ADMIN')
    const { user, cookie } = await person()
    await prisma.user.update({ where: { id: user.id }, data: { panCardKey: `pan-cards/${user.id}/missing.png` } })
    const path = `/admin/customers/${user.id}`

    const firstView = await customerRoute.loader(args(path, first.cookie, { userId: user.id }))
    expect(firstView.adminViews.total).toBe(1)
    expect(firstView.adminViews.views[0]).toMatchObject({ what: "Customer's page" })
    expect(firstView.adminViews.views[0]!.admin).toContain(first.user.phone)

    await panCardRoute.loader(args(`${path}/pan-card`, second.cookie, { userId: user.id }))
    const secondView = await customerRoute.loader(args(path, second.cookie, { userId: user.id }))
    expect(secondView.adminViews.total).toBe(3)
    expect(secondView.adminViews.views.map((view) => [view.what, view.admin.includes(second.user.phone)])).toEqual([
      ["Customer's page", true],
      ['PAN card image', true],
      ["Customer's page", false],
    ])
    expect(secondView.adminViews.views[0]!.at).toMatch(/^\d{2}-\d{2}-\d{4}/)

    // A customer who does not exist: 404, and nothing recorded.
    const missing = '00000000-0000-4000-8000-000000000000'
    await expect(
      customerRoute.loader(args(`/admin/customers/${missing}`, first.cookie, { userId: missing })),
    ).rejects.toMatchObject({ init: { status: 404 } })
    expect(await prisma.auditLog.count({ where: { subjectId: missing } })).toBe(0)

    // The customer's own data shows none of it.
    const accountRoute = await import('~/routes/account')
    const own = await accountRoute.loader(args('/account', cookie))
    expect(JSON.stringify(own)).not.toContain(first.user.phone)
    expect(JSON.stringify(own)).not.toMatch(/view/i)
  })
})

describe('granting a subscription', () => {
  it('follows on from a running subscription, is audited with its reason, and e-mails the customer', async () => {
    const admin = await person('ADMIN')
    const { user } = await person()
    const service = await createService('Equity', 299_900, 30)
    const now = new Date('2026-06-01T06:30:00Z')
    const payment = await createPaymentRow(user.id, [cartItemOf(service)])
    const paidEnd = new Date(now.getTime() + 10 * MS_PER_DAY)
    await prisma.subscription.create({
      data: { userId: user.id, serviceId: service.id, paymentId: payment.id, startsAt: now, endsAt: paidEnd },
    })
    await activeSubscriptions(user.id, now) // cached now

    const outcome = await grantSubscriptionAsAdmin(
      admin.user.id,
      user.id,
      { serviceId: service.id, durationDays: 7, reason: 'Reports missed during the outage' },
      now,
    )

    expect(outcome).toEqual({ ok: true, message: `Granted 7 days of ${service.name}, ending on 18-06-2026.` })
    const [granted] = await prisma.subscription.findMany({ where: { userId: user.id, paymentId: null } })
    expect(granted).toMatchObject({
      startsAt: paidEnd,
      endsAt: new Date(paidEnd.getTime() + 7 * MS_PER_DAY),
      grantReason: 'Reports missed during the outage',
      grantedById: admin.user.id,
    })
    expect((await activeSubscriptions(user.id, now))[0]?.endsAt).toEqual(granted!.endsAt)
    expect(
      await prisma.auditLog.findMany({ where: { subjectId: user.id }, select: { action: true, after: true } }),
    ).toEqual([
      {
        action: 'subscription.grant',
        after: expect.objectContaining({
          subscriptionId: granted!.id,
          durationDays: 7,
          reason: 'Reports missed during the outage',
        }),
      },
    ])
    expect(await queuedEmails(user.email!)).toEqual([
      expect.objectContaining({ subject: 'A subscription was added to your account' }),
    ])
  })

  it('refuses a missing reason or a customer who does not exist, and neither a customer nor a visitor may grant at all', async () => {
    const admin = await person('ADMIN')
    const { user, cookie } = await person()
    const service = await createService('Swing', 149_900, 30)
    const post = (sessionCookie: string | undefined, fields: Record<string, string>) =>
      customerRoute.action(
        routeArgs(formRequest(`/admin/customers/${user.id}`, fields, sessionCookie), { userId: user.id }),
      )

    const noReason = (await post(admin.cookie, { serviceId: service.id, durationDays: '7', reason: ' ' })) as {
      init: { status: number }
      data: { result: { error?: Record<string, string[] | null> } }
    }
    expect(noReason.init.status).toBe(400)
    expect(noReason.data.result.error?.reason).toEqual(['Give the reason for this grant.'])
    for (const sessionCookie of [cookie, undefined]) {
      await expect(
        post(sessionCookie, { serviceId: service.id, durationDays: '7', reason: 'Because' }),
      ).rejects.toMatchObject({ init: { status: 404 } })
    }
    expect(
      await grantSubscriptionAsAdmin(admin.user.id, crypto.randomUUID(), {
        serviceId: service.id,
        durationDays: 7,
        reason: 'Because',
      }),
    ).toMatchObject({ ok: false, status: 404 })
    expect(await prisma.subscription.count({ where: { userId: user.id } })).toBe(0)
  })
})
