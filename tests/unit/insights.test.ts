import { describe, expect, it } from 'vitest'
import { activeAtMonthEnds, insightTable, monthsUpTo, renewalRatePercent, type InsightFigures } from '~/domain/insights'
import { funnelChart, moneyChart, renewalsChart } from '~/server/admin/insight-charts.server'

const months = ['2026-01', '2026-02', '2026-03']
const figures: InsightFigures = {
  months,
  money: months.map((month, index) => ({
    month,
    collectedPaise: 118_050 * (index + 1),
    refundedPaise: index === 2 ? 59_000 : 0,
    gstCollectedPaise: 18_008 * (index + 1),
    gstRefundedPaise: index === 2 ? 9_000 : 0,
  })),
  services: [{ id: 's', name: 'Equity' }],
  serviceMonths: [
    { serviceId: 's', month: '2025-12', started: 2, ended: 0, renewed: 0 },
    { serviceId: 's', month: '2026-02', started: 1, ended: 2, renewed: 1 },
  ],
  cohorts: { rows: [{ month: '2026-01', customers: 4, stillSubscribed: [3, null, null, null] }], computedAt: null },
  funnel: [
    { days: 30, signedIn: 10, profileComplete: 6, kycAllowsPayment: 5, paid: 2, failedAutomaticCharges: 0 },
    { days: 90, signedIn: 30, profileComplete: 16, kycAllowsPayment: 12, paid: 7, failedAutomaticCharges: 0 },
  ],
}

describe('monthsUpTo', () => {
  it('ends with the India month of now, 24 months across a year end', () => {
    // 00:30 on 1 December in India.
    const shown = monthsUpTo(new Date('2026-11-30T19:00:00Z'))
    expect(shown).toHaveLength(24)
    expect([shown[0], shown.at(-1)]).toEqual(['2025-01', '2026-12'])
  })
})

describe('the figures', () => {
  it('count subscribers from the first month on, and no renewal rate where nothing ended', () => {
    expect(activeAtMonthEnds(figures.serviceMonths, 's', months)).toEqual([2, 1, 1])
    expect(renewalRatePercent({ month: '2026-01', ended: 0, renewed: 0 })).toBeNull()
    expect(renewalRatePercent({ month: '2026-02', ended: 2, renewed: 1 })).toBe(50)
  })

  it('give the page rupees and the CSV file rupees as numbers, net of refunds and of GST given back', () => {
    const table = insightTable('money', figures)
    expect(table.rows[2]!.map((cell) => cell.text)).toEqual([
      'March 2026',
      'Rs. 3,541.50',
      'Rs. 590',
      'Rs. 2,951.50',
      'Rs. 450.24',
    ])
    expect(table.rows[2]!.map((cell) => cell.csv)).toEqual(['March 2026', '3541.50', '590.00', '2951.50', '450.24'])
  })

  it('show a cohort share with its count, and "Not yet" until it is known', () => {
    const [row] = insightTable('cohorts', figures).rows
    expect(row!.map((cell) => cell.text)).toEqual(['January 2026', '4', '75.0% (3)', 'Not yet', 'Not yet', 'Not yet'])
  })
})

describe('the charts drawn with d3', () => {
  it('draw a point per month of each series, and leave a gap where a rate has no figure', () => {
    const money = moneyChart(figures)
    expect(money.series.map((series) => series.name)).toEqual(['Collected', 'Refunded', 'Net', 'GST in net'])
    expect(money.series[0]!.path.match(/[ML]/g)).toHaveLength(3)
    // Only February has a rate: one point, no line.
    expect(renewalsChart(figures).series[0]!.path).toMatch(/^M[\d.]+,[\d.]+Z$/)
  })

  it('draw the funnel a bar per step and window, taller for more customers', () => {
    const bars = funnelChart(figures).bars
    expect(bars).toHaveLength(8)
    expect(bars[1]!.height).toBeGreaterThan(bars[0]!.height)
    expect(bars.map((bar) => bar.label)).toEqual(['10', '30', '6', '16', '5', '12', '2', '7'])
  })
})
