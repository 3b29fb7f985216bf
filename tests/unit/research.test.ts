import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  canonicalResearchContent,
  disclosureLines,
  researchBlocks,
  researchInline,
  ResearchFormSchema,
  RESEARCH_LIMITS,
  type ResearchRecord,
} from '~/domain/research'
import { researchSigningKeyFromSeed, signResearch, verifyResearch } from '~/server/research/signing.server'

const RECORD: ResearchRecord = {
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

describe('the canonical content of a research item', () => {
  it('is the same bytes for the same record, whatever the order of its services', () => {
    const reordered = { ...RECORD, serviceIds: [...RECORD.serviceIds].reverse() }
    expect(canonicalResearchContent(reordered)).toBe(canonicalResearchContent(RECORD))
    expect(JSON.parse(canonicalResearchContent(RECORD))).toMatchObject({
      version: 1,
      services: ['aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'],
      publishedAt: '2026-11-29T05:30:00.123Z',
      disclosures: { compensationPastYear: true, otherConflict: 'None' },
    })
  })

  it('changes with every field that is printed', () => {
    const canonical = canonicalResearchContent(RECORD)
    const changes: Partial<ResearchRecord>[] = [
      { title: `${RECORD.title}.` },
      { body: `${RECORD.body} ` },
      { serviceIds: [RECORD.serviceIds[0]!] },
      { disclosures: { ...RECORD.disclosures, financialInterest: true } },
      { disclosures: { ...RECORD.disclosures, otherConflict: 'A director is a relative' } },
      { analyst: { ...RECORD.analyst, sebiRegistrationNumber: 'INH000000002' } },
      { authorId: '11111111-2222-4333-8444-555555555556' },
      { publishedAt: new Date(RECORD.publishedAt.getTime() + 1) },
    ]
    for (const change of changes) expect(canonicalResearchContent({ ...RECORD, ...change })).not.toBe(canonical)
  })
})

describe('signing a research item', () => {
  const key = researchSigningKeyFromSeed(randomBytes(32).toString('base64'))

  it('verifies with the public key, and not once any field is altered', () => {
    const signed = signResearch(RECORD, key)
    expect(signed.contentSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(signed.signingKeyFingerprint).toBe(key.fingerprint)
    expect(verifyResearch(RECORD, signed.signature, key.publicKey)).toBe(true)
    expect(verifyResearch({ ...RECORD, body: `${RECORD.body}\n- Buy now` }, signed.signature, key.publicKey)).toBe(
      false,
    )
    expect(
      verifyResearch(
        { ...RECORD, disclosures: { ...RECORD.disclosures, aiToolsUsed: false } },
        signed.signature,
        key.publicKey,
      ),
    ).toBe(false)
  })

  it('does not verify under another key', () => {
    const signed = signResearch(RECORD, key)
    const other = generateKeyPairSync('ed25519').publicKey
    expect(verifyResearch(RECORD, signed.signature, other)).toBe(false)
  })

  it('makes the same key from the same seed, and refuses a seed of the wrong size', () => {
    const seed = randomBytes(32).toString('base64')
    expect(researchSigningKeyFromSeed(seed).fingerprint).toBe(researchSigningKeyFromSeed(seed).fingerprint)
    expect(researchSigningKeyFromSeed(seed).publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/)
    expect(() => researchSigningKeyFromSeed(randomBytes(16).toString('base64'))).toThrow(/32 bytes/)
  })
})

describe('the body markup', () => {
  it('has headings, paragraphs, lists and links, and nothing else', () => {
    expect(
      researchBlocks('# Outlook\nFirst line\nsecond line\n\n- one\n* two [more](https://example.in/a)\nAfter'),
    ).toEqual([
      { kind: 'heading', text: 'Outlook' },
      { kind: 'paragraph', inline: [{ text: 'First line second line' }] },
      { kind: 'list', items: [[{ text: 'one' }], [{ text: 'two ' }, { text: 'more', href: 'https://example.in/a' }]] },
      { kind: 'paragraph', inline: [{ text: 'After' }] },
    ])
  })

  it('keeps a script and a javascript: link as text', () => {
    expect(researchInline('<script>alert(1)</script> [x](javascript:alert(1)) [y](//evil.example)')).toEqual([
      { text: '<script>alert(1)</script> [x](javascript:alert(1)) [y](//evil.example)' },
    ])
    expect(researchInline('see [the charter](/investor-charter).')).toEqual([
      { text: 'see ' },
      { text: 'the charter', href: '/investor-charter' },
      { text: '.' },
    ])
  })
})

describe('the research form', () => {
  const valid = {
    title: 'A title',
    body: 'Text',
    serviceIds: [RECORD.serviceIds[0]],
    financialInterest: 'no',
    ownershipOnePercent: 'no',
    compensationPastYear: 'yes',
    aiToolsUsed: 'no',
    otherConflict: 'None',
  }

  it('takes each disclosure as yes or no', () => {
    expect(ResearchFormSchema.parse(valid)).toMatchObject({ compensationPastYear: true, financialInterest: false })
    expect(ResearchFormSchema.safeParse({ ...valid, aiToolsUsed: undefined }).success).toBe(false)
  })

  it('refuses a body over the limit and an item for no service', () => {
    const long = ResearchFormSchema.safeParse({ ...valid, body: 'x'.repeat(RESEARCH_LIMITS.bodyMaxChars + 1) })
    expect(long.error?.issues[0]?.message).toBe('The body can be at most 50,000 characters.')
    expect(ResearchFormSchema.safeParse({ ...valid, serviceIds: [] }).error?.issues[0]?.message).toBe(
      'Choose at least one service.',
    )
  })

  it('prints every disclosure with its answer', () => {
    expect(disclosureLines(RECORD.disclosures).map((line) => line.answer)).toEqual(['No', 'No', 'Yes', 'Yes', 'None'])
  })
})
