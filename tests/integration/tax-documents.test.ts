import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as invoiceRoute from '~/routes/invoice'
import * as invoicesRoute from '~/routes/invoices'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { taxDocument } from '~/server/payments/tax-documents.server'
import { cartItemOf, createPaymentRow, createService, recordTestRefund } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

/** A customer with a complete profile who paid for two services on 10 April 2026, 11:30 IST. */
async function customerWhoPaid() {
  const customer = await signedInUser({ completeProfile: true })
  const equity = await createService('Equity', 299_900, 30)
  const swing = await createService('Swing', 149_900, 90)
  const payment = await createPaymentRow(customer.userId, [cartItemOf(equity), cartItemOf(swing)], {
    createdAt: new Date('2026-04-10T06:00:00Z'),
  })
  await markPaymentPaid(payment.id, {
    gatewayPaymentId: `pay_${randomUUID().slice(0, 12)}`,
    paidAt: new Date('2026-04-10T06:00:00Z'),
    source: 'webhook',
  })
  const { documentNumber } = await prisma.ledgerEntry.findFirstOrThrow({ where: { paymentId: payment.id } })
  return { customer, equity, swing, paymentId: payment.id, invoiceNumber: documentNumber }
}

describe('taxDocument', () => {
  it('is the tax invoice of a payment: a line per service with its period, taxable value and GST halves', async () => {
    const { customer, equity, invoiceNumber } = await customerWhoPaid()
    const document = await taxDocument({ id: customer.userId, role: 'CUSTOMER' }, invoiceNumber)

    expect(document).toMatchObject({
      number: invoiceNumber,
      title: 'Tax invoice',
      issuedOn: '10-04-2026',
      againstNumber: null,
      totalPaise: 449_800,
      gstPaise: 68_614,
      cgstPaise: 34_307,
      sgstPaise: 34_307,
      gstRateBasisPoints: 1800,
    })
    expect(document!.seller.gstin).toMatch(/^\d{2}[A-Z]{5}/)
    // The demo GSTIN's state code 00 is no state; a deployment's is refused at start unless it is one.
    expect(document!.placeOfSupply).toBe('State code 00 (no such state: a demo GSTIN)')
    expect(document!.lines[0]).toEqual({
      description: `${equity.name}: research service for 30 days`,
      period: '10-04-2026 to 10-05-2026',
      amountPaise: 299_900,
    })
    expect(document!.paidBy).toMatch(/^Paid on the website \(Razorpay payment pay_/)
    // An invoice only displays the PAN: masked.
    const { pan } = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })
    expect(document!.buyer.pan).toBe(`${pan!.slice(0, 5)}****${pan!.slice(-1)}`)
  })

  it("is a refund's credit note against the payment's invoice", async () => {
    const { customer, paymentId, invoiceNumber } = await customerWhoPaid()
    const { documentNumber } = await recordTestRefund(paymentId, 100_000, { at: new Date('2026-04-20T06:00:00Z') })
    const document = await taxDocument({ id: customer.userId, role: 'CUSTOMER' }, documentNumber)
    expect(document).toMatchObject({
      title: 'Credit note',
      issuedOn: '20-04-2026',
      againstNumber: invoiceNumber,
      totalPaise: -100_000,
      gstPaise: -15_254,
      placeOfSupply: 'State code 00 (no such state: a demo GSTIN)',
    })
  })

  it("is shown to its customer and to admins, not to another customer; an unknown number is nobody's", async () => {
    const { customer, invoiceNumber } = await customerWhoPaid()
    const other = await signedInUser({ completeProfile: true })
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await taxDocument({ id: other.userId, role: 'CUSTOMER' }, invoiceNumber)).toBeNull()
    expect(await taxDocument({ id: admin.userId, role: 'ADMIN' }, invoiceNumber)).not.toBeNull()
    expect(await taxDocument({ id: customer.userId, role: 'CUSTOMER' }, 'INV/0000/999999')).toBeNull()

    const [series, year, sequence] = invoiceNumber.split('/') as [string, string, string]
    const params = { series, year, sequence }
    const path = `/invoices/${invoiceNumber}`
    const response = await invoiceRoute
      .loader(routeArgs(getRequest(path, other.cookie), params))
      .catch((error: unknown) => error)
    expect(response).toMatchObject({ init: { status: 404 } })
    const own = await invoiceRoute.loader(routeArgs(getRequest(path, customer.cookie), params))
    expect(own.document.number).toBe(invoiceNumber)
  })
})

describe('/invoices', () => {
  it("lists the customer's own invoices and credit notes, newest first", async () => {
    const { customer, paymentId, invoiceNumber } = await customerWhoPaid()
    const { documentNumber } = await recordTestRefund(paymentId, 50_000)
    const { documents } = await invoicesRoute.loader(routeArgs(getRequest('/invoices', customer.cookie)))
    expect(documents.map((document) => [document.number, document.title, document.amountPaise])).toEqual([
      [documentNumber, 'Credit note', -50_000],
      [invoiceNumber, 'Tax invoice', 449_800],
    ])
  })
})
