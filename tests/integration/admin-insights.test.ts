import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { activeAtMonthEnds, renewalsByMonth, type InsightFigures } from '~/domain/insights'
import { loader as insightsLoader } from '~/routes/admin/insights'
import { loader as insightsCsvLoader } from '~/routes/admin/insights-csv'
import { computeCohorts, foldInsightChanges } from '~/server/admin/insight-aggregates.server'
import { insightFigures } from '~/server/admin/insights.server'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService, createUser, recordTestRefund } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

afterAll(() => stopJobs())

// Each test writes in months of its own: the money and cohort figures are the whole store's.
const NOW = new Date('2026-11-15T06:30:00Z')

type TestService = Awaited<ReturnType<typeof createService>>

async function pay(userId: string, service: TestService, paidAt: Date) {
  const payment = await createPaymentRow(userId, [cartItemOf(service)], { createdAt: paidAt })
  await markPaymentPaid(payment.id, { gatewayPaymentId: `pay_${randomInt(0, 1e12)}`, paidAt, source: 'webhook' })
  return payment.id
}

const moneyOf = (figures: InsightFigures, month: string) => figures.money.find((row) => row.month === month)

describe('money per month', () => {
  it('counts payments in their India month and a refund in the month it was made, with their GST', async () => {
    const service = await createService('Equity', 118_000, 30)
    const september = await pay(await createUser(), service, new Date('2026-09-10T06:00:00Z'))
    // 00:30 on 1 October in India: October's.
    await pay(await createUser(), service, new Date('2026-09-30T19:00:00Z'))
    await recordTestRefund(september, 59_000, { at: new Date('2026-10-05T06:00:00Z') })

    const figures = await insightFigures(NOW)
    expect(figures.months).toHaveLength(24)
    expect(figures.months.at(-1)).toBe('2026-11')
    expect(moneyOf(figures, '2026-09')).toEqual({
      month: '2026-09',
      collectedPaise: 118_000,
      refundedPaise: 0,
      gstCollectedPaise: 18_000,
      gstRefundedPaise: 0,
    })
    expect(moneyOf(figures, '2026-10')).toEqual({
      month: '2026-10',
      collectedPaise: 118_000,
      refundedPaise: 59_000,
      gstCollectedPaise: 18_000,
      gstRefundedPaise: 9_000,
    })

    // Folding moves the change rows into the month table and changes no figure.
    await foldInsightChanges()
    expect(await prisma.insightMoneyChange.count()).toBe(0)
    expect((await insightFigures(NOW)).money).toEqual(figures.money)
  })

  it('is the ledger summed by month, change rows and month table together', async () => {
    await foldInsightChanges()
    await pay(await createUser(), await createService('Equity', 99_900, 30), new Date('2026-09-11T06:00:00Z'))
    const [fromLedger] = await prisma.$queryRaw<{ collected: bigint; gst: bigint }[]>`
      SELECT sum(amount_paise) AS collected, sum(gst_paise) AS gst FROM ledger_entries
      WHERE kind = 'PAYMENT' AND insight_month(occurred_at) = '2026-09-01'`
    const september = moneyOf(await insightFigures(NOW), '2026-09')!
    expect(september.collectedPaise).toBe(Number(fromLedger!.collected))
    expect(september.gstCollectedPaise).toBe(Number(fromLedger!.gst))
  })
})

describe('subscribers and renewals per service', () => {
  it('counts periods running at each month end, and ended ones bought again within 30 days', async () => {
    const service = await createService('Options', 50_000, 30)
    const renewsLater = await createUser()
    await pay(renewsLater, service, new Date('2026-03-05T06:00:00Z'))
    await pay(renewsLater, service, new Date('2026-04-20T06:00:00Z')) // 16 days after its end
    const leaves = await createUser()
    await pay(leaves, service, new Date('2026-03-10T06:00:00Z'))
    const renewsAhead = await createUser()
    await pay(renewsAhead, service, new Date('2026-03-25T06:00:00Z'))
    await pay(renewsAhead, service, new Date('2026-04-01T06:00:00Z')) // starts at the current end
    const tooLate = await createUser()
    await pay(tooLate, service, new Date('2026-01-05T06:00:00Z'))
    await pay(tooLate, service, new Date('2026-03-20T06:00:00Z')) // 44 days after its end: a new start, not a renewal

    const months = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']
    let figures = await insightFigures(NOW)
    expect(figures.services.map((one) => one.id)).toContain(service.id)
    expect(activeAtMonthEnds(figures.serviceMonths, service.id, months)).toEqual([1, 0, 4, 2, 0])
    expect(renewalsByMonth(figures.serviceMonths, service.id, months)).toEqual([
      { month: '2026-01', ended: 0, renewed: 0 },
      { month: '2026-02', ended: 1, renewed: 0 },
      { month: '2026-03', ended: 0, renewed: 0 },
      { month: '2026-04', ended: 4, renewed: 2 },
      { month: '2026-05', ended: 2, renewed: 0 },
    ])

    // Ended early (a refund): the period ends in March, not April.
    const left = await prisma.subscription.findFirstOrThrow({ where: { userId: leaves, serviceId: service.id } })
    await prisma.subscription.update({
      where: { id: left.id },
      data: {
        endsAt: new Date('2026-03-20T06:00:00Z'),
        endedAt: new Date('2026-03-20T06:00:00Z'),
        originalEndsAt: left.endsAt,
      },
    })
    await foldInsightChanges()
    figures = await insightFigures(NOW)
    expect(activeAtMonthEnds(figures.serviceMonths, service.id, months)).toEqual([1, 0, 3, 2, 0])
    expect(renewalsByMonth(figures.serviceMonths, service.id, ['2026-03', '2026-04'])).toEqual([
      { month: '2026-03', ended: 1, renewed: 0 },
      { month: '2026-04', ended: 3, renewed: 2 },
    ])
  })
})

describe('cohorts by month of first payment', () => {
  it('counts who had a running subscription 1, 3, 6 and 12 months later, once that is known', async () => {
    const monthly = await createService('Monthly', 30_000, 30)
    const halfYear = await createService('Half year', 150_000, 180)
    const twoPeriods = await createUser()
    await pay(twoPeriods, monthly, new Date('2025-06-10T06:00:00Z'))
    await pay(twoPeriods, monthly, new Date('2025-06-15T06:00:00Z')) // runs on to about 9 August
    const halfYearOnly = await createUser()
    await pay(halfYearOnly, halfYear, new Date('2025-06-20T06:00:00Z'))
    const recent = await createUser()
    await pay(recent, monthly, new Date('2026-08-05T06:00:00Z'))
    // A customer's first payment decides the cohort, not a later one.
    await pay(halfYearOnly, monthly, new Date('2026-08-06T06:00:00Z'))

    await computeCohorts(NOW)
    const { cohorts } = await insightFigures(NOW)
    expect(cohorts.computedAt).toEqual(NOW)
    expect(cohorts.rows.find((row) => row.month === '2025-06')).toEqual({
      month: '2025-06',
      customers: 2,
      stillSubscribed: [2, 1, 0, 0],
    })
    // 1 month after 5 August is known by mid-November; 3 months after an August payment is not, for the whole month.
    expect(cohorts.rows.find((row) => row.month === '2026-08')).toEqual({
      month: '2026-08',
      customers: 1,
      stillSubscribed: [0, null, null, null],
    })
  })
})

describe('the funnel', () => {
  it('counts customers who first signed in within 30 and 90 days, and how far each got', async () => {
    const now = new Date()
    const before = (await insightFigures(now)).funnel
    const newCustomer = (fields: object = {}, createdAt?: Date) =>
      prisma.user.create({
        data: {
          phone: `+9197${String(randomInt(0, 100_000_000)).padStart(8, '0')}`,
          ...fields,
          ...(createdAt ? { createdAt } : {}),
        },
      })
    const complete = { agreementAcceptedAt: now, agreementVersion: 'test' }
    await newCustomer()
    await newCustomer({ ...complete, kycStatus: 'ON_HOLD' })
    await newCustomer({ ...complete, kycStatus: 'VALIDATED' })
    const payer = await newCustomer({ ...complete, kycStatus: 'REGISTERED' })
    await pay(payer.id, await createService('Funnel', 10_000, 30), now)
    await newCustomer({}, new Date(now.getTime() - 60 * 86_400_000))
    await newCustomer({ role: 'ADMIN' })

    const after = (await insightFigures(new Date())).funnel
    const added = after.map((window, index) => ({
      days: window.days,
      signedIn: window.signedIn - before[index]!.signedIn,
      profileComplete: window.profileComplete - before[index]!.profileComplete,
      kycAllowsPayment: window.kycAllowsPayment - before[index]!.kycAllowsPayment,
      paid: window.paid - before[index]!.paid,
      failedAutomaticCharges: window.failedAutomaticCharges,
    }))
    expect(added).toEqual([
      { days: 30, signedIn: 4, profileComplete: 3, kycAllowsPayment: 2, paid: 1, failedAutomaticCharges: 0 },
      { days: 90, signedIn: 5, profileComplete: 3, kycAllowsPayment: 2, paid: 1, failedAutomaticCharges: 0 },
    ])
  })
})

type Handler = (args: never) => Promise<unknown>
const call = (handler: Handler, request: Request) => handler(routeArgs(request))

describe('/admin/insights and its CSV files', () => {
  it('answer 404 to a customer and without a session', async () => {
    const { cookie } = await signedInUser({ role: 'CUSTOMER' })
    for (const [handler, path] of [
      [insightsLoader, '/admin/insights'],
      [insightsCsvLoader, '/admin/insights.csv?chart=money'],
    ] as [Handler, string][]) {
      await expect(call(handler, getRequest(path))).rejects.toMatchObject({ init: { status: 404 } })
      await expect(call(handler, getRequest(path, cookie))).rejects.toMatchObject({ init: { status: 404 } })
    }
  })

  it("show the admin this month's money change when a payment is made, as a chart, a table and a CSV file", async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const page = async () =>
      (await call(insightsLoader, getRequest('/admin/insights', cookie))) as Awaited<ReturnType<typeof insightsLoader>>
    const thisMonth = (data: Awaited<ReturnType<typeof insightsLoader>>) =>
      data.sections.find((section) => section.chart === 'money')!.rows.at(-1)!
    const before = await page()
    await pay(await createUser(), await createService('Now', 236_000, 30), new Date())
    const after = await page()

    expect(after.sections.map((section) => section.chart)).toEqual([
      'money',
      'subscribers',
      'renewals',
      'cohorts',
      'funnel',
    ])
    const money = after.sections[0]!
    expect(money.shape?.kind).toBe('lines')
    expect(money.shape?.kind === 'lines' && money.shape.series.map((series) => series.name)).toEqual([
      'Collected',
      'Refunded',
      'Net',
      'GST in net',
    ])
    expect(money.shape?.kind === 'lines' && money.shape.series[0]!.path).toMatch(/^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){23}$/)
    const collected = (row: string[]) => Number(row[1]!.replace('Rs. ', '').replace(/,/g, ''))
    expect(collected(thisMonth(after)) - collected(thisMonth(before))).toBe(2_360)
    expect(after.sections.find((section) => section.chart === 'funnel')!.shape?.kind).toBe('bars')

    const response = (await call(insightsCsvLoader, getRequest('/admin/insights.csv?chart=money', cookie))) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="insights-money-\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe('Month,Collected,Refunded,Net,GST in net')
    expect(lines).toHaveLength(25)
    const lastMonth = lines.at(-1)!.split(',')
    expect(Number(lastMonth[1])).toBeCloseTo(collected(thisMonth(after)), 2)
  })

  it('answer a CSV file for each chart, and say which charts there are for an unknown one', async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const headers: Record<string, string> = {
      subscribers: 'Month',
      renewals: 'Month,Service,Periods ended,Renewed within 30 days,Renewal rate,Renew automatically',
      cohorts: 'Month of first purchase,Customers,After 1 month,After 3 months,After 6 months,After 12 months',
      funnel: 'Step,Last 30 days,Last 90 days',
    }
    for (const [chart, header] of Object.entries(headers)) {
      const response = (await call(
        insightsCsvLoader,
        getRequest(`/admin/insights.csv?chart=${chart}`, cookie),
      )) as Response
      expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
      expect((await response.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(new RegExp(`^${header}`))
    }
    const funnel = (await call(insightsCsvLoader, getRequest('/admin/insights.csv?chart=funnel', cookie))) as Response
    expect(await funnel.text()).toContain('Failed automatic charges,0,0')

    const unknown = (await call(insightsCsvLoader, getRequest('/admin/insights.csv?chart=pie', cookie))) as Response
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toBe(
      'Which chart? Add ?chart= with one of: money, subscribers, renewals, cohorts, funnel.\n',
    )
  })
})
