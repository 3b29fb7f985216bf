import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { canonicalResearchContent, type ResearchRecord } from '~/domain/research'
import {
  attachmentDisposition,
  formatAttachmentSize,
  isPdf,
  RESEARCH_ATTACHMENT_MAX_BYTES,
  RESEARCH_ATTACHMENT_NAME_MAX_CHARS,
  researchAttachmentName,
} from '~/domain/research-attachment'
import { researchTelegramText } from '~/domain/research-channels'
import { researchSigningKeyFromSeed, signResearch, verifyResearch } from '~/server/research/signing.server'
import { TINY_PNG } from '../support/multipart'
import { MINIMAL_PDF, pdfOfSize, RENAMED_EXE, TRUNCATED_PDF } from '../support/pdf'

const REPORT: ResearchRecord = {
  id: '6f1c1e2a-8d1b-4c1e-9a55-0a6d2f3b4c5d',
  kind: 'REPORT',
  title: 'Banks: a quarter of steady margins',
  body: '## Summary\nMargins held.\n\n- Deposits grew\n- Costs fell',
  serviceIds: ['bbbbbbbb-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000001'],
  disclosures: {
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: true,
    otherConflict: 'None',
    aiToolsUsed: true,
  },
  analyst: { name: 'Test Research', sebiRegistrationNumber: 'INH000000001', bseEnlistmentNumber: '5001' },
  authorId: '11111111-2222-4333-8444-555555555555',
  publishedAt: new Date('2026-11-29T05:30:00.123Z'),
}
const ATTACHMENT = { sha256: 'ab'.repeat(32), size: 2_411_000, name: 'Banks Q2.pdf' }
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('a research attachment is a PDF by its content', () => {
  it('accepts a complete PDF, and one of exactly 10 MB', () => {
    expect(RESEARCH_ATTACHMENT_MAX_BYTES).toBe(10_485_760)
    expect(isPdf(MINIMAL_PDF)).toBe(true)
    expect(isPdf(pdfOfSize(RESEARCH_ATTACHMENT_MAX_BYTES))).toBe(true)
  })

  it('refuses a renamed program, an image, a cut-off PDF, and text that only starts like one', () => {
    expect(isPdf(RENAMED_EXE)).toBe(false)
    expect(isPdf(TINY_PNG)).toBe(false)
    expect(isPdf(TRUNCATED_PDF)).toBe(false)
    expect(isPdf(new TextEncoder().encode('%PDF-1.4 and then nothing a PDF has'))).toBe(false)
    expect(isPdf(new TextEncoder().encode('%PDF-x.y\nstartxref\n0\n%%EOF'))).toBe(false)
    expect(isPdf(new Uint8Array())).toBe(false)
  })
})

describe("the attachment's name", () => {
  it('keeps the chosen name without folders or control characters, ending in .pdf', () => {
    expect(researchAttachmentName('Banks Q2.pdf')).toBe('Banks Q2.pdf')
    expect(researchAttachmentName('C:\\Users\\me\\Banks.PDF')).toBe('Banks.pdf')
    expect(researchAttachmentName('../../etc/passwd')).toBe('passwd.pdf')
    expect(researchAttachmentName('a"b\u0000\r\nc.pdf')).toBe('abc.pdf')
    expect(researchAttachmentName('')).toBe('attachment.pdf')
    expect(researchAttachmentName(`${'x'.repeat(500)}.pdf`)).toHaveLength(RESEARCH_ATTACHMENT_NAME_MAX_CHARS)
  })

  it('is downloaded, never shown inline, with an ASCII name and the UTF-8 one', () => {
    expect(attachmentDisposition('Banks Q2.pdf')).toBe(
      `attachment; filename="Banks Q2.pdf"; filename*=UTF-8''Banks%20Q2.pdf`,
    )
    expect(attachmentDisposition('बैंक (Q2).pdf')).toBe(
      `attachment; filename="____ (Q2).pdf"; filename*=UTF-8''%E0%A4%AC%E0%A5%88%E0%A4%82%E0%A4%95%20%28Q2%29.pdf`,
    )
    expect(formatAttachmentSize(2_411_000)).toBe('2.3 MB')
    expect(formatAttachmentSize(800)).toBe('1 KB')
  })
})

describe('the canonical content with an attachment (decision 050)', () => {
  it('is byte for byte what it was when the item has no attachment', () => {
    const pinned = '94552237a8de75765f650242b21a2fd0054c9441e1771dca57ad64df3da0f4c7'
    expect(sha256(canonicalResearchContent(REPORT))).toBe(pinned)
    expect(sha256(canonicalResearchContent({ ...REPORT, attachment: null }))).toBe(pinned)
  })

  it("adds the file's SHA-256, size and name as the last key, after a call's terms", () => {
    const report = JSON.parse(canonicalResearchContent({ ...REPORT, attachment: ATTACHMENT }))
    expect(Object.keys(report).at(-1)).toBe('attachment')
    expect(report.attachment).toEqual({ sha256: ATTACHMENT.sha256, size: ATTACHMENT.size, name: 'Banks Q2.pdf' })
    const call = JSON.parse(
      canonicalResearchContent({
        ...REPORT,
        kind: 'CALL',
        call: {
          exchange: 'NSE',
          symbol: 'HDFCBANK',
          isin: null,
          action: 'BUY',
          entryLowPaise: 150_000,
          entryHighPaise: null,
          targetsPaise: [160_000],
          stopLossPaise: 145_000,
          horizon: '3 months',
        },
        attachment: ATTACHMENT,
      }),
    )
    expect(Object.keys(call).slice(-2)).toEqual(['call', 'attachment'])
  })

  it('signs the hash: another file under the same name does not verify', () => {
    const key = researchSigningKeyFromSeed(Buffer.alloc(32, 7).toString('base64'))
    const record = { ...REPORT, attachment: ATTACHMENT }
    const { signature } = signResearch(record, key)
    expect(verifyResearch(record, signature, key.publicKey)).toBe(true)
    expect(
      verifyResearch({ ...record, attachment: { ...ATTACHMENT, sha256: 'cd'.repeat(32) } }, signature, key.publicKey),
    ).toBe(false)
    expect(verifyResearch({ ...record, attachment: null }, signature, key.publicKey)).toBe(false)
  })
})

describe('Telegram mentions the attachment with its link, whole or as a summary', () => {
  const parts = {
    title: 'Banks',
    services: ['Equity'],
    disclosures: ['Financial interest: No'],
    link: 'https://store.example/research/1',
    attachment: 'Attachment: Banks Q2.pdf (PDF, 2.3 MB): https://store.example/research/1/attachment',
  }
  it('in the whole text and in a summary', () => {
    expect(researchTelegramText({ ...parts, lines: ['Margins held.'] }).text).toContain(parts.attachment)
    const long = researchTelegramText({ ...parts, lines: Array.from({ length: 40 }, () => 'x'.repeat(150)) })
    expect(long.summary).toBe(true)
    expect(long.text).toContain(parts.attachment)
  })
})
