import { describe, expect, it } from 'vitest'
import {
  acknowledgementField,
  acknowledgementMessage,
  acknowledgementsFromForm,
  API_ACKNOWLEDGED_KINDS,
  apiAcknowledgementMessage,
  consentsBeforePayingMessage,
  checkAcknowledgements,
  CONSENT_DOCUMENT_KINDS,
  CONSENT_DOCUMENTS,
  documentVersion,
  PAGE_ACKNOWLEDGED_KINDS,
  recordedUserAgent,
  USER_AGENT_MAX_CHARS,
} from '~/domain/consent'

const CURRENT = {
  TERMS: 'agreement-aaaaaaaaaaaa',
  MITC: 'mitc-bbbbbbbbbbbb',
  CONSENT_STATEMENT: 'consent-cccccccccccc',
  INVESTOR_CHARTER: 'charter-dddddddddddd',
  PERSONAL_DATA: 'privacy-eeeeeeeeeeee',
}

describe('checkAcknowledgements', () => {
  it('accepts every required document at its current version', () => {
    expect(checkAcknowledgements(CURRENT, { ...CURRENT }, PAGE_ACKNOWLEDGED_KINDS)).toEqual({
      ok: true,
      kinds: [...CONSENT_DOCUMENT_KINDS],
    })
  })

  it('names the documents left unticked before any stale one', () => {
    expect(
      checkAcknowledgements(CURRENT, { TERMS: 'agreement-000000000000', MITC: CURRENT.MITC }, PAGE_ACKNOWLEDGED_KINDS),
    ).toEqual({ ok: false, reason: 'missing', kinds: ['CONSENT_STATEMENT', 'INVESTOR_CHARTER', 'PERSONAL_DATA'] })
  })

  it('refuses a stale version of any document given, required or not', () => {
    expect(checkAcknowledgements(CURRENT, { ...CURRENT, MITC: 'mitc-000000000000' }, PAGE_ACKNOWLEDGED_KINDS)).toEqual({
      ok: false,
      reason: 'stale',
      kinds: ['MITC'],
    })
    const terms = { TERMS: CURRENT.TERMS }
    expect(checkAcknowledgements(CURRENT, { ...terms, PERSONAL_DATA: 'privacy-0' }, ['TERMS'])).toMatchObject({
      ok: false,
      reason: 'stale',
      kinds: ['PERSONAL_DATA'],
    })
  })

  it('records the optional documents acknowledged alongside the required ones', () => {
    const terms = { TERMS: CURRENT.TERMS }
    expect(checkAcknowledgements(CURRENT, terms, ['TERMS'])).toEqual({ ok: true, kinds: ['TERMS'] })
    expect(checkAcknowledgements(CURRENT, { ...terms, INVESTOR_CHARTER: CURRENT.INVESTOR_CHARTER }, ['TERMS'])).toEqual(
      { ok: true, kinds: ['TERMS', 'INVESTOR_CHARTER'] },
    )
  })

  it('asks of the API every document the page asks for', () => {
    expect([...API_ACKNOWLEDGED_KINDS]).toEqual([...PAGE_ACKNOWLEDGED_KINDS])
    const { INVESTOR_CHARTER: _charter, ...withoutCharter } = CURRENT
    expect(checkAcknowledgements(CURRENT, withoutCharter, API_ACKNOWLEDGED_KINDS)).toEqual({
      ok: false,
      reason: 'missing',
      kinds: ['INVESTOR_CHARTER'],
    })
  })
})

describe('the messages of a refusal', () => {
  it('name the documents by title', () => {
    expect(acknowledgementMessage({ ok: false, reason: 'missing', kinds: ['MITC', 'PERSONAL_DATA'] })).toBe(
      'Tick each box to continue. Not yet acknowledged: Most Important Terms and Conditions (MITC), Privacy Policy.',
    )
    expect(acknowledgementMessage({ ok: false, reason: 'stale', kinds: ['TERMS'] })).toBe(
      'These documents were updated while you were reading them: Terms and Conditions. Please read this version and accept it.',
    )
  })
})

describe("the API's messages", () => {
  it('name each document with its current version', () => {
    expect(apiAcknowledgementMessage({ ok: false, reason: 'missing', kinds: ['INVESTOR_CHARTER'] }, CURRENT)).toContain(
      'Not acknowledged: Investor Charter (charter-dddddddddddd).',
    )
    expect(apiAcknowledgementMessage({ ok: false, reason: 'stale', kinds: ['MITC'] }, CURRENT)).toContain(
      'Most Important Terms and Conditions (MITC) (mitc-bbbbbbbbbbbb)',
    )
    expect(consentsBeforePayingMessage(['INVESTOR_CHARTER', 'PERSONAL_DATA'], CURRENT)).toContain(
      'acknowledge: Investor Charter (charter-dddddddddddd), Privacy Policy (privacy-eeeeeeeeeeee).',
    )
  })
})

describe('acknowledgementsFromForm', () => {
  it('reads each ticked box (its version) and ignores blanks and other fields', () => {
    const form = new URLSearchParams({
      intent: 'accept-agreement',
      [acknowledgementField('TERMS')]: ' agreement-aaaaaaaaaaaa ',
      [acknowledgementField('MITC')]: '',
      version: 'agreement-ffffffffffff',
    })
    expect(acknowledgementsFromForm(form)).toEqual({ TERMS: 'agreement-aaaaaaaaaaaa' })
  })
})

describe('the documents', () => {
  it('are versioned by their own prefix and the first 12 hex digits of the hash', () => {
    expect(documentVersion('TERMS', 'abcdef0123456789')).toBe('agreement-abcdef012345')
    expect(documentVersion('INVESTOR_CHARTER', 'abcdef0123456789')).toBe('charter-abcdef012345')
    expect(new Set(CONSENT_DOCUMENT_KINDS.map((kind) => CONSENT_DOCUMENTS[kind].versionPrefix)).size).toBe(5)
  })

  it('keep consent to the terms and consent to processing personal data apart', () => {
    expect(PAGE_ACKNOWLEDGED_KINDS).toContain('TERMS')
    expect(PAGE_ACKNOWLEDGED_KINDS).toContain('PERSONAL_DATA')
    expect(CONSENT_DOCUMENTS.PERSONAL_DATA.acknowledgement).not.toBe(CONSENT_DOCUMENTS.TERMS.acknowledgement)
  })
})

describe('recordedUserAgent', () => {
  it('keeps a user agent trimmed, cut to its limit, and none as null', () => {
    expect(recordedUserAgent('  okhttp/4.12.0 ')).toBe('okhttp/4.12.0')
    expect(recordedUserAgent('x'.repeat(USER_AGENT_MAX_CHARS + 10))).toHaveLength(USER_AGENT_MAX_CHARS)
    expect(recordedUserAgent(null)).toBeNull()
    expect(recordedUserAgent('   ')).toBeNull()
  })
})
