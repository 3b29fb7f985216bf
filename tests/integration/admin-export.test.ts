import pg from 'pg'
import { describe, expect, it } from 'vitest'
import * as exportRoute from '~/routes/admin/export'
import * as exportCsvRoute from '~/routes/admin/export-csv'
import { csvCell, csvCellSql, csvLine } from '~/domain/csv'
import { formatIndiaDateTime } from '~/domain/dates'
import { maskPan } from '~/domain/pan'
import { exportCsv } from '~/server/admin/export.server'
import { servicesOf } from '~/server/admin/payments-export.server'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService, createUser, recordTestRefund } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

const admin = () => signedInUser({ role: 'ADMIN' })

/** A paid gateway payment created at `createdAt` by a customer called `name`. */
async function paidPayment(name: string, createdAt: Date) {
  const userId = await createUser()
  await prisma.user.update({ where: { id: userId }, data: { name } })
  const service = await createService('Equity', 299_950, 30)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], { createdAt })
  await markPaymentPaid(payment.id, {
    gatewayPaymentId: `pay_${payment.id.slice(0, 8)}`,
    paidAt: createdAt,
    source: 'webhook',
  })
  return { paymentId: payment.id, service }
}

/** The export's whole file, read from its stream. */
async function csvOf(...args: Parameters<typeof exportCsv>) {
  const { filename, body } = await exportCsv(...args)
  // ignoreBOM keeps the byte order mark in the text, where Excel needs it.
  return { filename, csv: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await new Response(body).arrayBuffer()) }
}

const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')

describe('exportCsv', () => {
  it('takes the India dates, both included: 00:00 IST on the first to 23:59 IST on the last', async () => {
    const { userId } = await admin()
    const inside = await paidPayment('inside first', new Date('2026-01-31T18:30:00Z')) // 1 Feb 00:00 IST
    const last = await paidPayment('inside last', new Date('2026-02-28T18:29:00Z')) // 28 Feb 23:59 IST
    await paidPayment('before', new Date('2026-01-31T18:29:00Z')) // 31 Jan 23:59 IST
    await paidPayment('after', new Date('2026-02-28T18:30:00Z')) // 1 Mar 00:00 IST

    const result = await csvOf(userId, { kind: 'payments', from: '2026-02-01', to: '2026-02-28' })
    const rows = lines(result.csv)
    expect(rows[0]).toMatch(/^Payment id,Created \(IST\),Paid \(IST\),Method,Status/)
    expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual([inside.paymentId, last.paymentId])
    expect(rows[1]).toContain('01-02-2026 00:00 IST')
    expect(rows[1]).toContain(',2999.50,INR,')
    expect(result.filename).toBe('payments-2026-02-01-to-2026-02-28.csv')

    const subscriptions = await csvOf(userId, { kind: 'subscriptions', from: '2026-02-01', to: '2026-02-28' })
    expect(lines(subscriptions.csv).slice(1)).toEqual([
      expect.stringContaining(`,inside first,`),
      expect.stringContaining(`,inside last,`),
    ])
    expect(lines(subscriptions.csv)[1]).toContain(',2999.50,')
    expect(await prisma.auditLog.count({ where: { actorId: userId, action: 'export.csv' } })).toBe(2)
  })

  it("gives each payment its invoice number, taxable value, GST and refunds, and exports the ledger's invoices and credit notes", async () => {
    const { userId } = await admin()
    const { paymentId } = await paidPayment('ledger customer', new Date('2026-04-10T06:00:00Z'))
    await recordTestRefund(paymentId, 100_000, { at: new Date('2026-04-12T06:00:00Z') })

    const payments = await csvOf(userId, { kind: 'payments', from: '2026-04-10', to: '2026-04-10' })
    const [header, row] = lines(payments.csv)
    expect(header).toMatch(/,Invoice or receipt,Taxable value \(Rs\.\),GST \(Rs\.\),Refunded \(Rs\.\)$/)
    // 2,999.50 at 18% GST-inclusive: 457.55 of GST, 2,541.95 taxable.
    expect(row).toMatch(/,INV\/2627\/\d{6},2541\.95,457\.55,1000\.00$/)

    const ledger = await csvOf(userId, { kind: 'ledger', from: '2026-04-10', to: '2026-04-12' })
    const [ledgerHeader, invoice, creditNote] = lines(ledger.csv)
    expect(ledgerHeader).toMatch(/^Document,Type,Date \(IST\),Against invoice,Customer,Phone,PAN,Taxable value/)
    const invoiceNumber = invoice!.split(',')[0]!
    expect(invoice).toMatch(/^INV\/2627\/\d{6},Tax invoice,10-04-2026 11:30 IST,,ledger customer,/)
    expect(invoice).toContain(',2541.95,18,228.77,228.78,2999.50,')
    expect(creditNote).toMatch(new RegExp(`^CN/2627/\\d{6},Credit note,12-04-2026 11:30 IST,${invoiceNumber},`))
    expect(creditNote).toContain(',-847.46,18,-76.27,-76.27,-1000.00,')
  })

  it("carries the customer's PAN masked in both registers (docs/decisions/019)", async () => {
    const { userId } = await admin()
    const { paymentId } = await paidPayment('pan holder', new Date('2026-03-12T06:00:00Z'))
    const pan = uniquePan()
    await prisma.user.updateMany({ where: { payments: { some: { id: paymentId } } }, data: { pan } })
    for (const kind of ['payments', 'ledger'] as const) {
      const { csv } = await csvOf(userId, { kind, from: '2026-03-12', to: '2026-03-12' })
      expect(csv, kind).toContain(`,${pan.slice(0, 5)}****${pan.slice(-1)},`)
      expect(csv, kind).not.toContain(pan)
    }
  })

  // The payments export writes its text cells in SQL (app/server/admin/payments-export.server.ts): the same rules.
  const HOSTILE_TEXT = [
    '',
    'plain',
    'a,b',
    'say "hi"',
    '"',
    'line\nbreak',
    'carriage\rreturn',
    'crlf\r\n',
    '=HYPERLINK("http://evil.example")',
    '=1+2',
    '+',
    '-',
    '@',
    '@SUM(A1)',
    '\tTab',
    '\rReturn first',
    '+919876543210',
    '-500',
    '-5.50',
    '+1.2.3',
    '-1e5',
    '-5.',
    '+-1',
    ' =not at start',
    "'already guarded",
    '-12,5',
    '=a\n"b"',
    'राम शर्मा ₹',
    '=राम',
    '-١٢٣',
    'emoji 😀, "quoted"',
  ]

  it('writes hostile text in SQL exactly as csvCell does', async () => {
    const values = [...HOSTILE_TEXT, null]
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query<{ cell: string }>(
        `SELECT ${csvCellSql('t.value')} AS cell FROM unnest($1::text[]) WITH ORDINALITY t(value, n) ORDER BY t.n`,
        [values],
      )
      expect(rows.map((row) => row.cell)).toEqual(values.map(csvCell))
    } finally {
      await client.end()
    }
  })

  it('writes each payment line as csvLine writes its cells, hostile text in every text column', async () => {
    const { userId } = await admin()
    const createdAt = new Date('2026-03-14T06:00:00Z')
    const payments = []
    for (const [index, text] of HOSTILE_TEXT.entries()) {
      const { paymentId } = await paidPayment(text, new Date(createdAt.getTime() + index * 60_000))
      const pan = uniquePan()
      await prisma.user.updateMany({
        where: { payments: { some: { id: paymentId } } },
        data: { email: `${text}${index}@example.com`, pan },
      })
      await prisma.payment.update({
        where: { id: paymentId },
        data: {
          utr: text,
          payerAccountName: text,
          paidVia: text,
          // Unique columns: the text, then a number.
          gatewayOrderId: `${text} ${index}`,
          gatewayPaymentId: `${text}${index}`,
        },
      })
      payments.push(paymentId)
    }
    await recordTestRefund(payments[1]!, 50_000, { at: new Date('2026-03-15T06:00:00Z') })
    const expected = await Promise.all(
      payments.map(async (id) => {
        const payment = await prisma.payment.findUniqueOrThrow({
          where: { id },
          include: {
            user: true,
            ledgerEntries: { select: { kind: true, documentNumber: true, amountPaise: true, gstPaise: true } },
          },
        })
        const receipt = payment.ledgerEntries.find((entry) => entry.kind === 'PAYMENT')!
        const refunded = -payment.ledgerEntries
          .filter((entry) => entry.kind === 'REFUND')
          .reduce((sum, entry) => sum + entry.amountPaise, 0)
        const rupees = (paise: number) => (paise / 100).toFixed(2)
        return csvLine([
          payment.id,
          formatIndiaDateTime(payment.createdAt),
          formatIndiaDateTime(payment.paidAt!),
          payment.method,
          payment.status,
          payment.paidVia,
          payment.user.name,
          payment.user.phone,
          payment.user.email,
          maskPan(payment.user.pan),
          servicesOf(payment.cart),
          rupees(payment.amountPaise),
          payment.currency,
          payment.utr,
          payment.payerAccountName,
          payment.gatewayOrderId,
          payment.gatewayPaymentId,
          receipt.documentNumber,
          rupees(receipt.amountPaise - receipt.gstPaise),
          rupees(receipt.gstPaise),
          rupees(refunded),
        ])
      }),
    )
    for (const batchRows of [1, 1_000]) {
      const { csv } = await csvOf(userId, { kind: 'payments', from: '2026-03-14', to: '2026-03-14' }, { batchRows })
      expect(csv.replace(/^\uFEFF[^\n]*\n/, '')).toBe(expected.join(''))
    }
  })

  it('defuses a customer name a spreadsheet would run as a formula', async () => {
    const { userId } = await admin()
    await paidPayment('=HYPERLINK("http://evil.example")', new Date('2026-03-10T06:00:00Z'))
    const result = await csvOf(userId, { kind: 'payments', from: '2026-03-10', to: '2026-03-10' })
    expect(result.csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`)
  })

  it("writes a customer's phone number as it is, without the formula guard's apostrophe", async () => {
    const { userId } = await admin()
    const { paymentId } = await paidPayment('phone owner', new Date('2026-03-11T06:00:00Z'))
    const { phone } = await prisma.user.findFirstOrThrow({
      where: { payments: { some: { id: paymentId } } },
      select: { phone: true },
    })
    for (const kind of ['payments', 'subscriptions'] as const) {
      const result = await csvOf(userId, { kind, from: '2026-03-11', to: '2026-03-11' })
      expect(result.csv).toContain(`,${phone},`)
      expect(result.csv).not.toContain(`'${phone}`)
    }
  })

  it('streams a range of any length in batches, each row once and in order, even where times are equal', async () => {
    const { userId } = await admin()
    const sameTime = new Date('2026-05-10T06:00:00Z')
    const payments = [
      await paidPayment('first', new Date('2026-05-09T06:00:00Z')),
      await paidPayment('same time a', sameTime),
      await paidPayment('same time b', sameTime),
      await paidPayment('same time c', sameTime),
      await paidPayment('last', new Date('2026-05-11T06:00:00Z')),
    ]
    const inOrder = [
      payments[0]!.paymentId,
      ...payments
        .slice(1, 4)
        .map((payment) => payment.paymentId)
        .sort(),
      payments[4]!.paymentId,
    ]
    // Batches of 2 end between rows of the same time; a batch of exactly the rest ends the file.
    for (const batchRows of [1, 2, 5]) {
      const { csv } = await csvOf(userId, { kind: 'payments', from: '2026-05-09', to: '2026-05-11' }, { batchRows })
      expect(csv.startsWith('\uFEFFPayment id,')).toBe(true)
      expect(
        lines(csv)
          .slice(1)
          .map((row) => row.split(',')[0]),
      ).toEqual(inOrder)
    }
  })

  it('records the export in the audit log before the first row is read', async () => {
    const { userId } = await admin()
    await paidPayment('audited', new Date('2026-06-10T06:00:00Z'))
    const { body } = await exportCsv(userId, { kind: 'ledger', from: '2025-04-01', to: '2026-11-30' })
    expect(
      await prisma.auditLog.findFirstOrThrow({
        where: { actorId: userId, action: 'export.csv' },
        select: { after: true },
      }),
    ).toEqual({ after: { kind: 'ledger', from: '2025-04-01', to: '2026-11-30' } })
    await body.cancel()
  })
})

describe('GET /admin/export.csv and /admin/export', () => {
  const download = (query: string, cookie?: string) =>
    exportCsvRoute.loader(routeArgs(getRequest(`/admin/export.csv${query}`, cookie)))
  const load = (query: string, cookie?: string) =>
    exportRoute.loader(routeArgs(getRequest(`/admin/export${query}`, cookie)))

  it('is a 404 for anyone but an admin', async () => {
    const { cookie } = await signedInUser()
    for (const handler of [load, download]) {
      await expect(handler('?kind=payments&from=2026-02-01&to=2026-02-28')).rejects.toMatchObject({
        init: { status: 404 },
      })
      await expect(handler('?kind=payments&from=2026-02-01&to=2026-02-28', cookie)).rejects.toMatchObject({
        init: { status: 404 },
      })
    }
  })

  it('answers a CSV download for a valid range, and the form with messages otherwise', async () => {
    const { cookie } = await admin()
    const file = await download('?kind=subscriptions&from=2026-02-01&to=2026-02-28', cookie)
    expect(file.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(file.headers.get('Content-Disposition')).toBe(
      'attachment; filename="subscriptions-2026-02-01-to-2026-02-28.csv"',
    )

    const back = await download('?kind=payments&from=2026-03-01&to=2026-02-01', cookie)
    expect(back.headers.get('Location')).toBe('/admin/export?kind=payments&from=2026-03-01&to=2026-02-01')
    const reversed = (await load('?kind=payments&from=2026-03-01&to=2026-02-01', cookie)) as {
      errors: { to?: string[] }
    }
    expect(reversed.errors.to).toEqual(['The end date must not be before the start date.'])
    // Any length of range is one file now: five years is a valid request.
    const fiveYears = (await load('?kind=payments&from=2021-04-01&to=2026-03-31', cookie)) as {
      errors: { to?: string[] }
    }
    expect(fiveYears.errors).toEqual({})
  })
})
