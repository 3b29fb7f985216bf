import { describe, expect, it } from 'vitest'
import { csvLine } from '~/domain/csv'
import { canonicalResearchContent, type ResearchRecord } from '~/domain/research'
import {
  AuditPackRangeSchema,
  deliveryCsvCells,
  parseAuditPackRecord,
  recordCsvCells,
} from '~/domain/research-audit-pack'

const RECORD: ResearchRecord = {
  id: '7f3c1c2e-4a39-4d7e-9a53-2d7b7a0c1e11',
  kind: 'REPORT',
  // A title that looks like a time stays a title that writes the same JSON.
  title: '2025-01-01T00:00:00.000Z',
  body: 'Body',
  serviceIds: ['b', 'a'],
  disclosures: {
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: true,
    otherConflict: '=1+1',
    aiToolsUsed: false,
  },
  analyst: { name: 'Store', sebiRegistrationNumber: 'INH000000000', bseEnlistmentNumber: '1234' },
  authorId: '0b8f0c4e-95d4-4b59-8b1f-0d39f1d0f0aa',
  publishedAt: new Date('2025-04-10T05:30:00.123Z'),
}

const line = (record: ResearchRecord) =>
  JSON.stringify({
    id: record.id,
    status: 'PUBLISHED',
    contentSha256: 'abc',
    signature: 'c2ln',
    signingKeyFingerprint: 'f',
    canonicalContent: canonicalResearchContent(record),
    record,
  })

describe('the audit pack record lines', () => {
  it('refuses a line that is not JSON or not a record', () => {
    expect(parseAuditPackRecord('{"id":')).toBeNull()
    expect(parseAuditPackRecord('[]')).toBeNull()
    expect(parseAuditPackRecord('{"id":"x","record":{}}')).toBeNull()
    expect(
      parseAuditPackRecord(line(RECORD).replace('"publishedAt":"2025-04-10T05:30:00.123Z"', '"publishedAt":1')),
    ).toBeNull()
  })

  it('reads a record back so that it gives the canonical text it was written from', () => {
    const read = parseAuditPackRecord(line(RECORD))!
    expect(read.record.publishedAt).toEqual(RECORD.publishedAt)
    expect(canonicalResearchContent(read.record)).toBe(read.canonicalContent)
  })

  it('writes CSV cells with formulas guarded and service ids sorted', () => {
    const read = parseAuditPackRecord(line({ ...RECORD, title: '@SUM(A1)' }))!
    expect(csvLine(recordCsvCells(read))).toBe(
      `${RECORD.id},REPORT,PUBLISHED,'@SUM(A1),2025-04-10T05:30:00.123Z,a b,${RECORD.authorId},abc,c2ln,f,\r\n`,
    )
    // A record with a PDF attachment: its signed SHA-256 in the last column (decision 050).
    const attached = { ...read, record: { ...read.record, attachment: { sha256: 'e3b0', size: 1, name: 'a.pdf' } } }
    expect(csvLine(recordCsvCells(attached)).endsWith(',f,e3b0\r\n')).toBe(true)
    expect(
      csvLine(
        deliveryCsvCells({
          id: 'd',
          itemId: 'i',
          userId: 'u',
          channel: 'EMAIL',
          status: 'FAILED',
          attempts: 3,
          queuedAt: 'q',
          sentAt: null,
          deliveredAt: null,
          failedAt: 'f',
          providerMessageId: null,
          lastError: '-550 "mailbox", full',
        }),
      ),
    ).toBe(`d,i,u,EMAIL,FAILED,3,q,,,f,,"'-550 ""mailbox"", full"\r\n`)
  })
})

describe('the date-range pack query', () => {
  it('takes two real dates in order', () => {
    expect(AuditPackRangeSchema.safeParse({ from: '2025-04-01', to: '2026-03-31' }).success).toBe(true)
    expect(AuditPackRangeSchema.safeParse({ from: '2026-03-31', to: '2025-04-01' }).success).toBe(false)
    expect(AuditPackRangeSchema.safeParse({ from: '2025-13-01', to: '2025-12-31' }).success).toBe(false)
    expect(AuditPackRangeSchema.safeParse({ from: '1 April', to: '2025-12-31' }).success).toBe(false)
    expect(AuditPackRangeSchema.safeParse({ to: '2025-12-31' }).success).toBe(false)
  })
})
