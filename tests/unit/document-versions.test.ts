import { describe, expect, it } from 'vitest'
import { CONSENT_DOCUMENT_KINDS, type ConsentDocumentKind } from '~/domain/consent'
import { acknowledgementsDue } from '~/domain/document-versions'
import { officialTextBlocks, officialTextProblem } from '~/domain/official-texts'

const CURRENT = Object.fromEntries(CONSENT_DOCUMENT_KINDS.map((kind) => [kind, `${kind}-now`])) as Record<
  ConsentDocumentKind,
  string
>
const all = (version: (kind: ConsentDocumentKind) => string) =>
  CONSENT_DOCUMENT_KINDS.map((kind) => ({ kind, version: version(kind) }))

describe('acknowledgementsDue', () => {
  it('asks nothing of a customer who acknowledged every current text', () => {
    expect(
      acknowledgementsDue(
        all((kind) => CURRENT[kind]),
        CURRENT,
      ),
    ).toEqual([])
  })

  it('asks again for a changed Privacy Policy, Investor Charter or MITC, but not for the terms (they have their own versions)', () => {
    expect(
      acknowledgementsDue(
        all((kind) => `${kind}-before`),
        CURRENT,
      ),
    ).toEqual([
      { kind: 'MITC', changed: true },
      { kind: 'INVESTOR_CHARTER', changed: true },
      { kind: 'PERSONAL_DATA', changed: true },
    ])
  })

  it('counts any acknowledgement of the current text, whatever came after', () => {
    const given = [...all((kind) => CURRENT[kind]), { kind: 'PERSONAL_DATA' as const, version: 'PERSONAL_DATA-before' }]
    expect(acknowledgementsDue(given, CURRENT)).toEqual([])
  })

  it('asks for the charter and the data consent never given, and not for an MITC only accepted within the terms', () => {
    expect(acknowledgementsDue([{ kind: 'TERMS', version: CURRENT.TERMS }], CURRENT)).toEqual([
      { kind: 'INVESTOR_CHARTER', changed: false },
      { kind: 'PERSONAL_DATA', changed: false },
    ])
  })
})

describe('official texts', () => {
  it('reads paragraphs between blank lines and lists of "- " lines', () => {
    expect(officialTextBlocks('Title\r\n\r\nOne\nparagraph\n\n- a\n- b\n\n\n')).toEqual([
      'Title',
      'One paragraph',
      { list: ['a', 'b'] },
    ])
  })

  it('refuses unknown names, empty, oversized and non-text files', () => {
    const bytes = (text: string) => new TextEncoder().encode(text)
    expect(officialTextProblem('mitc.txt', bytes('MITC'))).toBeNull()
    expect(officialTextProblem('MITC.txt', bytes('MITC'))).toMatch(/^holds MITC\.txt; only/)
    expect(officialTextProblem('mitc.txt', bytes(' \n'))).toBe('mitc.txt is empty')
    expect(officialTextProblem('mitc.txt', new Uint8Array(200_001).fill(65))).toMatch(/at most 200000/)
    expect(officialTextProblem('mitc.txt', bytes('a\u0000b'))).toBe('mitc.txt is not plain text')
  })
})
