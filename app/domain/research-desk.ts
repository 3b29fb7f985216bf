import { z } from 'zod'
import { indiaMidnight, MS_PER_DAY } from './dates'

// The analyst's desk (docs/research.md): the list's filters, scheduled publishing's time rules and
// the names the console gives kinds, states and channels.

export const RESEARCH_STATUS_LABELS = { DRAFT: 'Draft', SCHEDULED: 'Scheduled', PUBLISHED: 'Published' } as const
export type ResearchStatusName = keyof typeof RESEARCH_STATUS_LABELS
export const RESEARCH_STATUSES = Object.keys(RESEARCH_STATUS_LABELS) as ResearchStatusName[]

export const RESEARCH_KIND_LABELS = { REPORT: 'Report', CALL: 'Call', FOLLOW_UP: 'Follow-up' } as const
export type ResearchKindName = keyof typeof RESEARCH_KIND_LABELS
export const RESEARCH_KINDS = Object.keys(RESEARCH_KIND_LABELS) as ResearchKindName[]

/** The delivery log's channels as the console names them; the site is not a row of the log. */
export const RESEARCH_CHANNEL_LABELS: Record<'EMAIL' | 'SMS' | 'TELEGRAM', string> = {
  EMAIL: 'E-mail',
  SMS: 'SMS',
  TELEGRAM: 'Telegram',
}
export const researchChannelLabel = (channel: keyof typeof RESEARCH_CHANNEL_LABELS) => RESEARCH_CHANNEL_LABELS[channel]

/** How far ahead an item can be scheduled (docs/limits.md). */
export const RESEARCH_SCHEDULE_HORIZON_DAYS = 90

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-22')

/** /admin/research?serviceId=&kind=&status=&from=&to= (India calendar dates, inclusive). Empty means "any". */
export const ResearchListFilterSchema = z
  .object({
    serviceId: z.uuid().optional(),
    kind: z.enum(RESEARCH_KINDS as [ResearchKindName, ...ResearchKindName[]]).optional(),
    status: z.enum(RESEARCH_STATUSES as [ResearchStatusName, ...ResearchStatusName[]]).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .strip()
export type ResearchListFilter = z.infer<typeof ResearchListFilterSchema>

/**
 * The filter a query string asks for. Each field that does not read (a hand-edited link) is left
 * out and named in `ignored`, so the list still answers and says what it did not apply.
 */
export function readResearchListFilter(params: URLSearchParams): { filter: ResearchListFilter; ignored: string[] } {
  const filter: Record<string, string> = {}
  const ignored: string[] = []
  for (const name of ['serviceId', 'kind', 'status', 'from', 'to'] as const) {
    const value = params.get(name)
    if (value === null || value === '') continue
    const field = ResearchListFilterSchema.shape[name].safeParse(value)
    if (field.success && field.data !== undefined && (name !== 'from' && name !== 'to' ? true : isRealDate(value)))
      filter[name] = field.data
    else ignored.push(name)
  }
  return { filter: filter as ResearchListFilter, ignored }
}

/** A calendar date that exists (not 2026-02-31). */
function isRealDate(isoDay: string): boolean {
  const [year, month, day] = isoDay.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** The instants a date filter covers: from the India midnight of `from` to the one after `to`. */
export function researchListRange(filter: ResearchListFilter): { from: Date | null; until: Date | null } {
  return {
    from: filter.from ? indiaMidnight(filter.from) : null,
    until: filter.to ? new Date(indiaMidnight(filter.to).getTime() + MS_PER_DAY) : null,
  }
}

const IST_OFFSET = '+05:30'
const DATETIME_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** The instant a `<input type="datetime-local">` value names in India time, or null for anything else. */
export function parseIndiaDateTimeLocal(text: string): Date | null {
  const match = DATETIME_LOCAL.exec(text)
  if (!match) return null
  const [, year, month, day, hour, minute] = match.map(Number) as number[]
  const asUtc = new Date(Date.UTC(year!, month! - 1, day!, hour, minute))
  // Date.UTC rolls 31 February over to March: such a value is not a time.
  if (asUtc.getUTCMonth() !== month! - 1 || asUtc.getUTCDate() !== day || hour! > 23 || minute! > 59) return null
  return new Date(`${text}:00${IST_OFFSET}`)
}

const IST_OFFSET_MS = (5 * 60 + 30) * 60_000

/** `instant` as a datetime-local value in India time, to the minute ("2026-11-30T09:15"). */
export function indiaDateTimeLocal(instant: Date): string {
  return new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 16)
}

export type ScheduleTime = { ok: true; at: Date } | { ok: false; message: string }

/** When an item may be scheduled for: a later minute than now, within the horizon. */
export function readScheduleTime(text: unknown, now: Date): ScheduleTime {
  const at = typeof text === 'string' ? parseIndiaDateTimeLocal(text.trim()) : null
  if (!at) return { ok: false, message: 'Enter the date and time to publish, in India time.' }
  if (at.getTime() <= now.getTime())
    return { ok: false, message: 'That time has passed: choose a later minute, or publish now.' }
  if (at.getTime() > now.getTime() + RESEARCH_SCHEDULE_HORIZON_DAYS * MS_PER_DAY)
    return { ok: false, message: `Schedule at most ${RESEARCH_SCHEDULE_HORIZON_DAYS} days ahead.` }
  return { ok: true, at }
}
