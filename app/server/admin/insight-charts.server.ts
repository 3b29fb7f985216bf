import { scaleBand, scaleLinear, scalePoint } from 'd3-scale'
import { line } from 'd3-shape'
import { formatRupees } from '~/domain/money'
import {
  activeAtMonthEnds,
  FUNNEL_STEPS,
  netGstPaise,
  netPaise,
  renewalRatePercent,
  renewalsByMonth,
  shortMonthLabel,
  type BarChartShape,
  type InsightFigures,
  type LineChartShape,
} from '~/domain/insights'

// The charts of /admin/insights drawn here, on the server, with d3's scales and line generator:
// the page gets paths and coordinates, so d3 never reaches the browser and the charts show
// without JavaScript.

const WIDTH = 720
const HEIGHT = 300
// Room on the right for the last month's label, centred under the last point.
const PLOT = { left: 88, top: 16, right: WIDTH - 40, bottom: HEIGHT - 56 }
const Y_TICKS = 5
/** Every third month's label fits under a 720-wide chart. */
const MONTH_LABEL_EVERY = 3

type Series = { name: string; values: (number | null)[] }

function lineChart(
  categories: readonly string[],
  series: readonly Series[],
  formatValue: (value: number) => string,
  { maxAtLeast = 1 }: { maxAtLeast?: number } = {},
): LineChartShape {
  const x = scalePoint<number>()
    .domain(categories.map((_, index) => index))
    .range([PLOT.left, PLOT.right])
  const values = series.flatMap((one) => one.values.filter((value): value is number => value !== null))
  const y = scaleLinear()
    .domain([Math.min(0, ...values), Math.max(maxAtLeast, ...values)])
    .nice(Y_TICKS)
    .range([PLOT.bottom, PLOT.top])
  const path = line<number | null>()
    .defined((value) => value !== null)
    .x((_, index) => x(index)!)
    .y((value) => y(value!))
  return {
    kind: 'lines',
    width: WIDTH,
    height: HEIGHT,
    plot: PLOT,
    series: series.map((one, index) => ({
      name: one.name,
      path: path(one.values) ?? '',
      points: one.values.flatMap((value, at) => (value === null ? [] : [{ x: x(at)!, y: y(value) }])),
      style: index,
    })),
    xTicks: categories.flatMap((label, index) =>
      (categories.length - 1 - index) % MONTH_LABEL_EVERY === 0 ? [{ at: x(index)!, label }] : [],
    ),
    yTicks: y.ticks(Y_TICKS).map((value) => ({ at: y(value), label: formatValue(value) })),
  }
}

const rupeeAxis = (paise: number) => `Rs. ${paise < 0 ? '-' : ''}${formatRupees(Math.round(Math.abs(paise)))}`

export function moneyChart(figures: InsightFigures): LineChartShape {
  return lineChart(
    figures.months.map(shortMonthLabel),
    [
      { name: 'Collected', values: figures.money.map((month) => month.collectedPaise) },
      { name: 'Refunded', values: figures.money.map((month) => month.refundedPaise) },
      { name: 'Net', values: figures.money.map(netPaise) },
      { name: 'GST in net', values: figures.money.map(netGstPaise) },
    ],
    rupeeAxis,
    { maxAtLeast: 100 },
  )
}

export function subscribersChart(figures: InsightFigures): LineChartShape {
  return lineChart(
    figures.months.map(shortMonthLabel),
    figures.services.map((service) => ({
      name: service.name,
      values: activeAtMonthEnds(figures.serviceMonths, service.id, figures.months),
    })),
    (value) => value.toLocaleString('en-IN'),
  )
}

export function renewalsChart(figures: InsightFigures): LineChartShape {
  const chart = lineChart(
    figures.months.map(shortMonthLabel),
    figures.services.map((service) => ({
      name: service.name,
      values: renewalsByMonth(figures.serviceMonths, service.id, figures.months).map(renewalRatePercent),
    })),
    (value) => `${value}%`,
    { maxAtLeast: 100 },
  )
  return chart
}

/** The funnel: a bar per step and window, each window's bars side by side. */
export function funnelChart(figures: InsightFigures): BarChartShape {
  const steps = scaleBand<number>()
    .domain(FUNNEL_STEPS.map((_, index) => index))
    .range([PLOT.left, PLOT.right])
    .paddingInner(0.25)
    .paddingOuter(0.1)
  const windows = scaleBand<number>()
    .domain(figures.funnel.map((_, index) => index))
    .range([0, steps.bandwidth()])
    .padding(0.08)
  const most = Math.max(1, ...figures.funnel.map((window) => window.signedIn))
  const y = scaleLinear().domain([0, most]).nice(Y_TICKS).range([PLOT.bottom, PLOT.top])
  return {
    kind: 'bars',
    width: WIDTH,
    height: HEIGHT,
    plot: PLOT,
    bars: FUNNEL_STEPS.flatMap((step, stepIndex) =>
      figures.funnel.map((window, windowIndex) => {
        const value = window[step.key]
        return {
          x: steps(stepIndex)! + windows(windowIndex)!,
          y: y(value),
          width: windows.bandwidth(),
          height: PLOT.bottom - y(value),
          style: windowIndex,
          label: value.toLocaleString('en-IN'),
        }
      }),
    ),
    legend: figures.funnel.map((window, index) => ({ name: `Last ${window.days} days`, style: index })),
    categoryTicks: FUNNEL_STEPS.map((step, index) => ({
      at: steps(index)! + steps.bandwidth() / 2,
      label: step.label,
    })),
    valueTicks: y
      .ticks(Y_TICKS)
      .filter(Number.isInteger)
      .map((value) => ({ at: y(value), label: value.toLocaleString('en-IN') })),
  }
}
