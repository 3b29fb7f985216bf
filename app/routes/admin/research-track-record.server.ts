import { toCsv, type CsvCell } from '~/domain/csv'
import { formatIndiaDateTime } from '~/domain/dates'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { CALL_ACTION_WORDS, entryWords, formatCallPrice, instrumentWords } from '~/domain/research-calls'
import {
  BASIS_POINTS_PER_PERCENT,
  CALL_OUTCOME_WORDS,
  formatBasisPoints,
  type CallOutcome,
} from '~/domain/research-track-record'
import { isUuid } from '~/domain/uuid'
import { researchServiceChoices } from '~/server/research/items.server'
import { serviceTrackRecord, type TrackRecordCall } from '~/server/research/track-record.server'

// View models of /admin/research/track-record and its CSV (docs/research.md, "Track record").

/** The page lists this many calls, newest first; the summary and the CSV cover them all (docs/limits.md). */
export const TRACK_RECORD_PAGE_ROWS = 500

/** "Open (target 1 of 2 hit)", "Target hit", "Withdrawn"; an exit call says it is not scored. */
export function outcomeWords(result: CallOutcome): string {
  const words =
    result.outcome === 'OPEN' && result.targetsHit > 0
      ? `Open (target ${result.targetsHit} of ${result.targetsPaise.length} hit)`
      : CALL_OUTCOME_WORDS[result.outcome]
  return result.scored ? words : `${words} (exit call, not scored)`
}

const targetsWords = (call: TrackRecordCall) =>
  call.result.targetsPaise.length ? call.result.targetsPaise.map(formatCallPrice).join(', ') : 'None'

export async function trackRecordPage(url: URL) {
  const services = (await researchServiceChoices()).map(({ id, name }) => ({ value: id, label: name }))
  const serviceId = url.searchParams.get('service')?.trim() ?? ''
  if (!serviceId) return { services, serviceId, problem: null, record: null }
  const record = isUuid(serviceId) ? await serviceTrackRecord(serviceId) : null
  if (!record)
    return { services, serviceId, problem: 'There is no such service: choose one from the list.', record: null }
  const { summary } = record
  return {
    services,
    serviceId,
    problem: null,
    record: {
      service: record.service,
      summary: {
        ...summary,
        hitRate:
          summary.hitRateBasisPoints === null
            ? 'None closed yet'
            : formatBasisPoints(summary.hitRateBasisPoints, false),
        averageReturn:
          summary.averageReturnBasisPoints === null
            ? 'None closed yet'
            : formatBasisPoints(summary.averageReturnBasisPoints),
      },
      shown: Math.min(record.calls.length, TRACK_RECORD_PAGE_ROWS),
      calls: record.calls.slice(0, TRACK_RECORD_PAGE_ROWS).map((call) => ({
        id: call.id,
        title: call.title,
        publishedAt: formatIndiaDateTime(call.publishedAt),
        instrument: instrumentWords(call),
        action: CALL_ACTION_WORDS[call.action],
        entry: entryWords(call),
        targets: targetsWords(call),
        stopLoss: call.result.stopLossPaise === null ? 'None' : formatCallPrice(call.result.stopLossPaise),
        revised: call.result.revised,
        outcome: outcomeWords(call.result),
        exit: call.result.exitPricePaise === null ? '' : formatCallPrice(call.result.exitPricePaise),
        endedAt: call.result.endedAt ? formatIndiaDateTime(call.result.endedAt) : '',
        returnWords: call.result.returnBasisPoints === null ? '' : formatBasisPoints(call.result.returnBasisPoints),
      })),
    },
  }
}

export const TRACK_RECORD_CSV_HEADER = [
  'Call id',
  'Published (IST)',
  'Title',
  'Exchange',
  'Symbol',
  'ISIN',
  'Action',
  'Entry low (Rs.)',
  'Entry high (Rs.)',
  'Targets (Rs.)',
  'Stop-loss (Rs.)',
  'Targets or stop-loss revised',
  'Horizon',
  'Outcome',
  'Targets hit',
  'Exit price (Rs.)',
  'Ended (IST)',
  'Return (basis points)',
  'Return (%)',
  'Scored',
] as const

const rupees = (paise: number | null): CsvCell => (paise === null ? null : (paise / PAISE_PER_RUPEE).toFixed(2))

export function trackRecordCsvRow(call: TrackRecordCall): CsvCell[] {
  const { result } = call
  return [
    call.id,
    formatIndiaDateTime(call.publishedAt),
    call.title,
    call.exchange,
    call.symbol,
    call.isin,
    CALL_ACTION_WORDS[call.action],
    rupees(call.entryLowPaise),
    rupees(call.entryHighPaise),
    result.targetsPaise.map((target) => rupees(target)).join(' '),
    rupees(result.stopLossPaise),
    result.revised ? 'yes' : 'no',
    call.horizon,
    CALL_OUTCOME_WORDS[result.outcome],
    result.targetsHit,
    rupees(result.exitPricePaise),
    result.endedAt ? formatIndiaDateTime(result.endedAt) : null,
    result.returnBasisPoints,
    result.returnBasisPoints === null ? null : result.returnBasisPoints / BASIS_POINTS_PER_PERCENT,
    result.scored ? 'yes' : 'no',
  ]
}

/** The whole track record of a service as a CSV file; null when there is no such service. */
export async function trackRecordCsv(serviceId: string | null) {
  const record = serviceId && isUuid(serviceId) ? await serviceTrackRecord(serviceId) : null
  if (!record) return null
  const slug =
    record.service.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'service'
  return {
    filename: `track-record-${slug}.csv`,
    body: toCsv(TRACK_RECORD_CSV_HEADER, record.calls.map(trackRecordCsvRow)),
  }
}
