import { describe, expect, it } from 'vitest'
import * as accountRoute from '~/routes/account'
import * as dataRoute from '~/routes/account.data-json'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

async function download(cookie: string) {
  const response = (await dataRoute.loader(routeArgs(getRequest('/account/data.json', cookie)))) as Response
  return { response, json: (await response.json()) as Record<string, unknown[]> & { profile: Record<string, unknown> } }
}

describe('/account/data.json', () => {
  it('downloads a customer with no payments: the full PAN, empty lists, never cached', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const { pan } = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { pan: true } })
    const { response, json } = await download(customer.cookie)
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="research-store-data-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
    expect(json.profile).toMatchObject({
      phone: customer.phone,
      name: 'Asha Rao',
      pan,
      dateOfBirth: '2001-05-17',
      panCardImage: '/details/pan-card',
    })
    expect(pan).toMatch(/^[A-Z]{5}\d{4}[A-Z]$/)
    expect(json.payments).toEqual([])
    expect(json.invoices).toEqual([])
    expect(json.subscriptions).toEqual([])
    expect(json.refunds).toEqual([])
    expect(json.acceptances!.length).toBeGreaterThan(0)
    expect(json.signIns).toEqual([expect.objectContaining({ active: true })])
  })

  it('downloads a customer with many payments: every payment, invoice and subscription, newest first', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const count = 30
    for (let index = 0; index < count; index++) {
      const service = await createService(`Plan ${index}`, 100_000 + index, 30)
      const createdAt = new Date(Date.now() - (count - index) * 3_600_000)
      const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], { method: 'MANUAL', createdAt })
      await markPaymentPaid(payment.id, { source: 'admin', paidAt: createdAt })
    }
    const { json } = await download(customer.cookie)
    expect(json.payments).toHaveLength(count)
    expect(json.invoices).toHaveLength(count)
    expect(json.subscriptions).toHaveLength(count)
    const payments = json.payments as { amountPaise: number; status: string; services: string[] }[]
    expect(payments[0]).toMatchObject({ amountPaise: 100_000 + count - 1, status: 'PAID' })
    expect(payments.at(-1)!.services[0]).toMatch(/^Plan 0 /)
  })

  it('sends a visitor to sign in', async () => {
    await expect(dataRoute.loader(routeArgs(getRequest('/account/data.json')))).rejects.toMatchObject({ status: 302 })
  })
})

describe('/account', () => {
  it('shows the PAN masked', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const { pan } = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { pan: true } })
    const page = await accountRoute.loader(routeArgs(getRequest('/account', customer.cookie)))
    expect(page.profile.pan).toBe(`${pan!.slice(0, 5)}****${pan!.slice(-1)}`)
    expect(JSON.stringify(page)).not.toContain(pan)
  })
})
