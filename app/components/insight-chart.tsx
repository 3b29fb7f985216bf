import type { BarChartShape, ChartShape, LineChartShape } from '~/domain/insights'

// Draws a chart the server laid out (app/server/admin/insight-charts.server.ts): only the given
// paths and coordinates. Series differ by colour and by dash, so they stay apart in grey too.

const STROKES = [
  'stroke-blue-700 dark:stroke-sky-300',
  'stroke-orange-700 dark:stroke-orange-300',
  'stroke-emerald-700 dark:stroke-emerald-300',
  'stroke-fuchsia-700 dark:stroke-fuchsia-300',
  'stroke-gray-700 dark:stroke-gray-300',
]
const FILLS = [
  'fill-blue-700 dark:fill-sky-300',
  'fill-orange-700 dark:fill-orange-300',
  'fill-emerald-700 dark:fill-emerald-300',
  'fill-fuchsia-700 dark:fill-fuchsia-300',
  'fill-gray-700 dark:fill-gray-300',
]
const DASHES = [undefined, '8 4', '2 3', '10 3 2 3', '4 4']

const strokeOf = (style: number) => STROKES[style % STROKES.length]
const dashOf = (style: number) => DASHES[style % DASHES.length]

function Legend({ items, kind }: { items: { name: string; style: number }[]; kind: 'lines' | 'bars' }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm" aria-hidden="true">
      {items.map((item) => (
        <li key={item.name} className="flex items-center gap-2">
          <svg width="28" height="12" viewBox="0 0 28 12">
            {kind === 'lines' ? (
              <line
                x1="0"
                y1="6"
                x2="28"
                y2="6"
                strokeWidth="3"
                strokeDasharray={dashOf(item.style)}
                className={strokeOf(item.style)}
              />
            ) : (
              <rect x="4" y="0" width="20" height="12" className={FILLS[item.style % FILLS.length]} />
            )}
          </svg>
          {item.name}
        </li>
      ))}
    </ul>
  )
}

function Gridlines({ chart, ticks }: { chart: ChartShape; ticks: { at: number; label: string }[] }) {
  return (
    <g className="text-[11px]">
      {ticks.map((tick) => (
        <g key={tick.label}>
          <line
            x1={chart.plot.left}
            x2={chart.plot.right}
            y1={tick.at}
            y2={tick.at}
            className="stroke-gray-200 dark:stroke-gray-700"
          />
          <text x={chart.plot.left - 6} y={tick.at} dy="0.32em" textAnchor="end" className="fill-current">
            {tick.label}
          </text>
        </g>
      ))}
    </g>
  )
}

function LineChart({ chart }: { chart: LineChartShape }) {
  return (
    <>
      <Gridlines chart={chart} ticks={chart.yTicks} />
      <g className="text-[11px]">
        {chart.xTicks.map((tick) => (
          <text key={tick.label} x={tick.at} y={chart.plot.bottom + 18} textAnchor="middle" className="fill-current">
            {tick.label}
          </text>
        ))}
      </g>
      {chart.series.map((series) => (
        <g key={series.name}>
          <path
            d={series.path}
            fill="none"
            strokeWidth="2.5"
            strokeLinejoin="round"
            strokeDasharray={dashOf(series.style)}
            className={strokeOf(series.style)}
          />
          {series.points.map((point) => (
            <circle key={point.x} cx={point.x} cy={point.y} r="2.5" className={FILLS[series.style % FILLS.length]} />
          ))}
        </g>
      ))}
    </>
  )
}

/** A long step name in two lines under its bars. */
function twoLines(label: string): string[] {
  const words = label.split(' ')
  if (words.length < 3) return [label]
  const half = Math.ceil(words.length / 2)
  return [words.slice(0, half).join(' '), words.slice(half).join(' ')]
}

function BarChart({ chart }: { chart: BarChartShape }) {
  return (
    <>
      <Gridlines chart={chart} ticks={chart.valueTicks} />
      {chart.bars.map((bar, index) => (
        <g key={index}>
          <rect x={bar.x} y={bar.y} width={bar.width} height={bar.height} className={FILLS[bar.style % FILLS.length]} />
          <text x={bar.x + bar.width / 2} y={bar.y - 4} textAnchor="middle" className="fill-current text-[11px]">
            {bar.label}
          </text>
        </g>
      ))}
      <g className="text-[11px]">
        {chart.categoryTicks.map((tick) => (
          <text key={tick.label} x={tick.at} y={chart.plot.bottom + 16} textAnchor="middle" className="fill-current">
            {twoLines(tick.label).map((part, index) => (
              <tspan key={part} x={tick.at} dy={index === 0 ? 0 : '1.2em'}>
                {part}
              </tspan>
            ))}
          </text>
        ))}
      </g>
    </>
  )
}

/**
 * The chart as a picture; its figures are in the table that follows it, which is what a screen
 * reader reads (the picture is hidden from it).
 */
export function InsightChart({ chart }: { chart: ChartShape }) {
  const legend =
    chart.kind === 'lines' ? chart.series.map((series) => ({ name: series.name, style: series.style })) : chart.legend
  return (
    <div>
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        className="h-auto w-full max-w-3xl text-gray-800 dark:text-gray-200"
        aria-hidden="true"
        focusable="false"
      >
        <line
          x1={chart.plot.left}
          x2={chart.plot.right}
          y1={chart.plot.bottom}
          y2={chart.plot.bottom}
          className="stroke-gray-500"
        />
        {chart.kind === 'lines' ? <LineChart chart={chart} /> : <BarChart chart={chart} />}
      </svg>
      <Legend items={legend} kind={chart.kind} />
    </div>
  )
}
