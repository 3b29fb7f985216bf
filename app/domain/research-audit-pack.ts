import { z } from 'zod'
import type { CsvCell } from './csv'
import type { ResearchRecord } from './research'

// The audit pack (docs/research.md, "Audit pack"; decision 041): a zip of the signed records, the public
// key, the roll and the delivery log, each table as JSON Lines and as CSV. This module names its files
// and writes its lines; app/server/research/audit-pack*.server.ts reads the database and zips them.

/** The pack's layout: a later change of shape is a new version, and research:verify reads the version it finds. */
export const AUDIT_PACK_FORMAT_VERSION = 1

export const AUDIT_PACK_FILES = {
  manifest: 'manifest.json',
  publicKey: 'public-key.pem',
  recordsJson: 'records.jsonl',
  recordsCsv: 'records.csv',
  rollJson: 'roll.jsonl',
  rollCsv: 'roll.csv',
  deliveriesJson: 'deliveries.jsonl',
  deliveriesCsv: 'deliveries.csv',
} as const

/** Each signed record's PDF attachment, as stored, is the pack's file `attachments/<item id>.pdf` (decision 050). */
export const AUDIT_PACK_ATTACHMENTS_FOLDER = 'attachments/'
export const attachmentEntryName = (itemId: string) => `${AUDIT_PACK_ATTACHMENTS_FOLDER}${itemId}.pdf`
/** The item id of an attachment's entry name; null for any other entry. */
export function attachmentEntryItemId(name: string): string | null {
  return /^attachments\/([0-9a-f-]{36})\.pdf$/.exec(name)?.[1] ?? null
}

/** One signed record as the pack holds it: the record, the exact text that was signed, and the signature. */
export type AuditPackRecord = {
  id: string
  status: string
  contentSha256: string
  signature: string
  signingKeyFingerprint: string
  /** canonicalResearchContent(record): the bytes the signature is over (UTF-8). */
  canonicalContent: string
  record: ResearchRecord
}

export const RECORDS_CSV_HEADER = [
  'Item id',
  'Kind',
  'Status',
  'Title',
  'Published (UTC)',
  'Service ids',
  'Author id',
  'Content SHA-256',
  'Signature (base64)',
  'Signing key fingerprint',
  'Attachment SHA-256',
] as const

export function recordCsvCells(pack: AuditPackRecord): CsvCell[] {
  return [
    pack.id,
    pack.record.kind,
    pack.status,
    pack.record.title,
    pack.record.publishedAt.toISOString(),
    [...pack.record.serviceIds].sort().join(' '),
    pack.record.authorId,
    pack.contentSha256,
    pack.signature,
    pack.signingKeyFingerprint,
    pack.record.attachment?.sha256 ?? '',
  ]
}

/** A roll row as the pack holds it (times in UTC, ISO 8601). */
export type AuditPackRollRow = {
  itemId: string
  userId: string
  name: string | null
  phone: string
  email: string | null
  deliveredAt: string
}

export const ROLL_CSV_HEADER = ['Item id', 'Customer id', 'Name', 'Phone', 'E-mail', 'Delivered (UTC)'] as const

export const rollCsvCells = (row: AuditPackRollRow): CsvCell[] => [
  row.itemId,
  row.userId,
  row.name,
  row.phone,
  row.email,
  row.deliveredAt,
]

/** A delivery-log row as the pack holds it (times in UTC, ISO 8601). */
export type AuditPackDeliveryRow = {
  id: string
  itemId: string
  userId: string
  channel: string
  status: string
  attempts: number
  queuedAt: string
  sentAt: string | null
  /** When the provider reported it delivered (MSG91's delivery reports, SMS only). */
  deliveredAt: string | null
  failedAt: string | null
  providerMessageId: string | null
  lastError: string | null
}

export const DELIVERIES_CSV_HEADER = [
  'Delivery id',
  'Item id',
  'Customer id',
  'Channel',
  'Status',
  'Attempts',
  'Queued (UTC)',
  'Sent (UTC)',
  'Delivered (UTC)',
  'Failed (UTC)',
  'Provider message id',
  'Failure reason',
] as const

export const deliveryCsvCells = (row: AuditPackDeliveryRow): CsvCell[] => [
  row.id,
  row.itemId,
  row.userId,
  row.channel,
  row.status,
  row.attempts,
  row.queuedAt,
  row.sentAt,
  row.deliveredAt,
  row.failedAt,
  row.providerMessageId,
  row.lastError,
]

/** A timestamp exactly as JSON writes a Date: what the pack's records hold for each of their times. */
const JSON_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** A record's times are named for the moment they hold (publishedAt); its texts never are. */
const TIME_KEY = /At$/

/**
 * A record line of records.jsonl read back: its times become Dates again, so canonicalResearchContent
 * gives the same text it gave at publication. Null when the line is not a record at all.
 */
export function parseAuditPackRecord(line: string): AuditPackRecord | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(line, (key, value) =>
      TIME_KEY.test(key) && typeof value === 'string' && JSON_TIME.test(value) && !Number.isNaN(Date.parse(value))
        ? new Date(value)
        : value,
    )
  } catch {
    return null
  }
  const shape = AuditPackRecordShape.safeParse(parsed)
  return shape.success ? (parsed as AuditPackRecord) : null
}

const AuditPackRecordShape = z.object({
  id: z.string(),
  status: z.string(),
  contentSha256: z.string(),
  signature: z.string(),
  signingKeyFingerprint: z.string(),
  canonicalContent: z.string(),
  record: z.object({ id: z.string(), title: z.string(), publishedAt: z.date() }).loose(),
})

/** The date-range pack's query: India dates, both included (the export's convention). */
const isoDate = z
  .string({ error: 'Use a date like 2026-04-01.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-04-01.')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'Use a real date.')

export const AuditPackRangeSchema = z
  .object({ from: isoDate, to: isoDate })
  .refine(({ from, to }) => from <= to, { path: ['to'], message: 'The end date must not be before the start date.' })
export type AuditPackRange = z.infer<typeof AuditPackRangeSchema>
