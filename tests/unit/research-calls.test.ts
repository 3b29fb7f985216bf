import { createHash } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { CallFormSchema, canonicalResearchContent, FollowUpFormSchema, type ResearchRecord } from '~/domain/research'
import { CALL_LIMITS, callLines, callProblems, parseRupeesToPaise, type CallRecord } from '~/domain/research-calls'
import {
  followUpFigures,
  followUpKindsFor,
  followUpLines,
  followUpProblems,
  followUpTitle,
} from '~/domain/research-follow-ups'
import { researchSigningKeyFromSeed, signResearch, verifyResearch } from '~/server/research/signing.server'

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

const BUY: CallRecord = {
  exchange: 'NSE',
  symbol: 'HDFCBANK',
  isin: 'INE040A01034',
  action: 'BUY',
  entryLowPaise: 150_000,
  entryHighPaise: 152_000,
  targetsPaise: [160_000, 165_000],
  stopLossPaise: 145_000,
  horizon: '3 months',
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

const CALL_FORM = {
  kind: 'call',
  title: 'Buy HDFC Bank',
  body: 'Deposits are growing faster than peers.',
  serviceIds: 'aaaaaaaa-0000-4000-8000-000000000001',
  financialInterest: 'no',
  ownershipOnePercent: 'no',
  compensationPastYear: 'no',
  aiToolsUsed: 'no',
  otherConflict: 'None',
  exchange: 'NSE',
  symbol: 'hdfcbank',
  action: 'BUY',
  entryLow: '1,500',
  entryHigh: '1520.50',
  targets: ['1600', '1650', ''],
  stopLoss: '1450',
  horizon: '3 months',
}

function formData(fields: Record<string, string | string[]>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one)
  return form
}

const errorsOf = (fields: Record<string, string | string[]>) => {
  const submission = parseWithZod(formData(fields), { schema: CallFormSchema })
  return (submission.status === 'success' ? {} : submission.error) ?? {}
}

describe("a report's canonical content", () => {
  it('is byte for byte what it was before calls existed, so old signatures still verify', () => {
    expect(sha256(canonicalResearchContent(REPORT))).toBe(
      '94552237a8de75765f650242b21a2fd0054c9441e1771dca57ad64df3da0f4c7',
    )
    expect(Object.keys(JSON.parse(canonicalResearchContent({ ...REPORT, call: BUY })))).not.toContain('call')
  })
})

describe("a call's canonical content", () => {
  const call: ResearchRecord = { ...REPORT, kind: 'CALL', call: BUY }

  it("adds the call's terms as one key at the end, after the report's keys", () => {
    const parsed = JSON.parse(canonicalResearchContent(call))
    expect(Object.keys(parsed).at(-1)).toBe('call')
    expect(parsed.call).toEqual({
      exchange: 'NSE',
      symbol: 'HDFCBANK',
      isin: 'INE040A01034',
      action: 'BUY',
      entryLowPaise: 150_000,
      entryHighPaise: 152_000,
      targetsPaise: [160_000, 165_000],
      stopLossPaise: 145_000,
      horizon: '3 months',
    })
  })

  it('changes with every term, and a signature over it fails once a term is altered', () => {
    const canonical = canonicalResearchContent(call)
    const changes: Partial<CallRecord>[] = [
      { exchange: 'BSE' },
      { symbol: 'ICICIBANK' },
      { isin: null },
      { action: 'HOLD' },
      { entryLowPaise: 150_001 },
      { entryHighPaise: null },
      { targetsPaise: [160_000] },
      { stopLossPaise: 144_000 },
      { horizon: '6 months' },
    ]
    for (const change of changes)
      expect(canonicalResearchContent({ ...call, call: { ...BUY, ...change } })).not.toBe(canonical)
    const key = researchSigningKeyFromSeed(Buffer.alloc(32, 7).toString('base64'))
    const { signature } = signResearch(call, key)
    expect(verifyResearch(call, signature, key.publicKey)).toBe(true)
    expect(verifyResearch({ ...call, call: { ...BUY, stopLossPaise: 100_000 } }, signature, key.publicKey)).toBe(false)
  })

  it('is refused without its terms rather than signed as a report', () => {
    expect(() => canonicalResearchContent({ ...REPORT, kind: 'CALL' })).toThrow()
    expect(() => canonicalResearchContent({ ...REPORT, kind: 'FOLLOW_UP' })).toThrow()
  })

  it("a follow-up's canonical content names its original", () => {
    const followUp: ResearchRecord = {
      ...REPORT,
      kind: 'FOLLOW_UP',
      followUp: {
        originalId: REPORT.id,
        kind: 'STOP_LOSS_REVISED',
        targetsPaise: [],
        stopLossPaise: 148_000,
        pricePaise: null,
      },
    }
    expect(JSON.parse(canonicalResearchContent(followUp)).followUp).toEqual({
      originalId: REPORT.id,
      kind: 'STOP_LOSS_REVISED',
      targetsPaise: [],
      stopLossPaise: 148_000,
      pricePaise: null,
    })
  })
})

describe('the direction rule of a call', () => {
  it('accepts a buy with its stop-loss below the entry and its targets above', () => {
    expect(callProblems(BUY)).toEqual([])
    expect(callProblems({ ...BUY, action: 'HOLD' })).toEqual([])
  })

  it('refuses a buy whose stop-loss is at or above the entry, on the stop-loss field', () => {
    expect(callProblems({ ...BUY, stopLossPaise: 150_000 })).toEqual([
      {
        field: 'stopLoss',
        message: 'For a buy call the stop-loss must be below the entry (Rs. 1,500 to Rs. 1,520).',
      },
    ])
  })

  it('refuses a buy with a target inside or below the entry range, on the targets field', () => {
    expect(callProblems({ ...BUY, targetsPaise: [151_000] })).toEqual([
      { field: 'targets', message: 'For a buy call every target must be above the entry (Rs. 1,500 to Rs. 1,520).' },
    ])
  })

  it('wants a sell the other way round', () => {
    const sell = {
      ...BUY,
      action: 'SELL' as const,
      entryHighPaise: null,
      targetsPaise: [140_000],
      stopLossPaise: 155_000,
    }
    expect(callProblems(sell)).toEqual([])
    expect(callProblems({ ...sell, stopLossPaise: 145_000 }).map((problem) => problem.message)).toEqual([
      'For a sell call the stop-loss must be above the entry (Rs. 1,500).',
    ])
    expect(callProblems({ ...sell, targetsPaise: [160_000] })[0]?.field).toBe('targets')
  })

  it('asks a buy or sell for a target and a stop-loss, and an exit for neither', () => {
    expect(callProblems({ ...BUY, targetsPaise: [], stopLossPaise: null })).toEqual([
      { field: 'targets', message: 'Enter at least one target.' },
      { field: 'stopLoss', message: 'Enter the stop-loss.' },
    ])
    const exit = { ...BUY, action: 'EXIT' as const }
    expect(callProblems(exit).map((problem) => problem.message)).toEqual([
      'An exit call has no targets.',
      'An exit call has no stop-loss.',
    ])
    expect(callProblems({ ...exit, targetsPaise: [], stopLossPaise: null })).toEqual([])
  })

  it('refuses an entry range upside down and too many targets', () => {
    expect(callProblems({ ...BUY, entryHighPaise: 140_000 })[0]).toEqual({
      field: 'entryHigh',
      message: 'The top of the entry range must be above its bottom.',
    })
    const many = Array.from({ length: CALL_LIMITS.targetsMax + 1 }, (_, index) => 160_000 + index)
    expect(callProblems({ ...BUY, targetsPaise: many })[0]?.field).toBe('targets')
  })
})

describe('prices typed in rupees', () => {
  it('become integer paise', () => {
    expect(parseRupeesToPaise('1,520.50')).toBe(152_050)
    expect(parseRupeesToPaise('₹ 1520.5')).toBe(152_050)
    expect(parseRupeesToPaise('Rs. 99')).toBe(9_900)
    expect(parseRupeesToPaise('10,00,000')).toBe(CALL_LIMITS.priceMaxPaise)
  })

  it('refuse anything else', () => {
    for (const bad of ['', '0', '-5', '1.234', '1e3', 'abc', '10,00,000.01', '1520.50<script>'])
      expect(parseRupeesToPaise(bad)).toBeNull()
  })
})

describe("the call's form", () => {
  it('gives the call terms in paise, the symbol in capitals and one entry price when the range is one price', () => {
    const submission = parseWithZod(formData(CALL_FORM), { schema: CallFormSchema })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(submission.value.call).toEqual({
      exchange: 'NSE',
      symbol: 'HDFCBANK',
      isin: null,
      action: 'BUY',
      entryLowPaise: 150_000,
      entryHighPaise: 152_050,
      targetsPaise: [160_000, 165_000],
      stopLossPaise: 145_000,
      horizon: '3 months',
    })
    const single = parseWithZod(formData({ ...CALL_FORM, entryHigh: '1500' }), { schema: CallFormSchema })
    expect(single.status === 'success' && single.value.call.entryHighPaise).toBeNull()
  })

  it('refuses a call without rationale, naming the field', () => {
    expect(errorsOf({ ...CALL_FORM, body: ' ' }).body).toEqual(['Enter the rationale.'])
  })

  it('refuses a stop-loss on the wrong side of the entry, on the stop-loss field', () => {
    expect(errorsOf({ ...CALL_FORM, stopLoss: '1600' }).stopLoss).toEqual([
      'For a buy call the stop-loss must be below the entry (Rs. 1,500 to Rs. 1,520.50).',
    ])
  })

  it('wants an instrument: exchange and symbol, or ISIN', () => {
    expect(errorsOf({ ...CALL_FORM, exchange: '', symbol: '' }).symbol).toEqual([
      'Enter the exchange and symbol, or the ISIN.',
    ])
    expect(errorsOf({ ...CALL_FORM, exchange: '' }).exchange).toEqual(['Choose the exchange the symbol is listed on.'])
    expect(errorsOf({ ...CALL_FORM, exchange: '', symbol: '', isin: 'INE040A01034' })).toEqual({})
    expect(errorsOf({ ...CALL_FORM, isin: 'IN<script>' }).isin).toEqual([
      'Enter the ISIN as 12 letters and digits, like INE040A01034.',
    ])
    expect(errorsOf({ ...CALL_FORM, targets: ['16OO'] }).targets).toEqual([
      'Enter each target in rupees, like 1600 or 1600.50.',
    ])
  })
})

describe('follow-ups', () => {
  const figures = (
    kind: Parameters<typeof followUpFigures>[0],
    typed: Partial<Parameters<typeof followUpFigures>[1]>,
  ) => followUpFigures(kind, { targetsPaise: [], stopLossPaise: null, pricePaise: null, ...typed })

  it('keep only the figures their kind uses', () => {
    expect(figures('CORRECTION', { stopLossPaise: 1, pricePaise: 2, targetsPaise: [3] })).toEqual({
      kind: 'CORRECTION',
      targetsPaise: [],
      stopLossPaise: null,
      pricePaise: null,
    })
    expect(figures('CLOSED', { pricePaise: 161_000, stopLossPaise: 1 })).toMatchObject({
      pricePaise: 161_000,
      stopLossPaise: null,
    })
  })

  it('of a report are only corrections and withdrawals', () => {
    expect(followUpProblems(null, figures('CORRECTION', {}))).toEqual([])
    expect(followUpProblems(null, figures('TARGET_HIT', { pricePaise: 1 }))).toEqual([
      { field: 'kind', message: 'A report can only be corrected or withdrawn.' },
    ])
  })

  it("of a call obey the call's direction and name their price", () => {
    expect(followUpProblems(BUY, figures('STOP_LOSS_REVISED', { stopLossPaise: 148_000 }))).toEqual([])
    expect(followUpProblems(BUY, figures('STOP_LOSS_REVISED', { stopLossPaise: 155_000 }))).toEqual([
      { field: 'stopLoss', message: 'For a buy call the stop-loss must be below the entry (Rs. 1,500 to Rs. 1,520).' },
    ])
    expect(followUpProblems(BUY, figures('TARGET_REVISED', {}))).toEqual([
      { field: 'targets', message: 'Enter at least one target.' },
    ])
    expect(followUpProblems(BUY, figures('CLOSED', {}))).toEqual([{ field: 'price', message: 'Enter the price.' }])
  })

  it('after a withdrawal, a stop-loss hit or a close are only corrections', () => {
    expect(followUpProblems(BUY, figures('TARGET_HIT', { pricePaise: 160_000 }), ['TARGET_REVISED'])).toEqual([])
    expect(followUpProblems(BUY, figures('TARGET_HIT', { pricePaise: 160_000 }), ['TARGET_HIT'])).toEqual([])
    expect(followUpProblems(BUY, figures('TARGET_HIT', { pricePaise: 160_000 }), ['CLOSED'])).toEqual([
      { field: 'kind', message: 'This call has ended (stop-loss hit or closed): only a correction can follow it.' },
    ])
    expect(followUpProblems(BUY, figures('CLOSED', { pricePaise: 140_000 }), ['STOP_LOSS_HIT'])).toHaveLength(1)
    expect(followUpProblems(null, figures('WITHDRAWAL', {}), ['WITHDRAWAL'])).toEqual([
      { field: 'kind', message: 'This report was withdrawn: only a correction can follow it.' },
    ])
    expect(followUpProblems(BUY, figures('CORRECTION', {}), ['CLOSED'])).toEqual([])
    expect(followUpKindsFor('CALL', ['TARGET_HIT', 'CLOSED'])).toEqual(['CORRECTION'])
  })

  it('are printed with their figures and titled after their original', () => {
    expect(followUpLines(figures('CLOSED', { pricePaise: 161_050 }))).toEqual([
      { label: 'What this is', value: 'Closed' },
      { label: 'Closed at', value: 'Rs. 1,610.50' },
    ])
    expect(followUpTitle('WITHDRAWAL', 'Buy HDFC Bank')).toBe('Withdrawal: Buy HDFC Bank')
  })

  it("need a note: the form's rationale of a follow-up", () => {
    const submission = parseWithZod(formData({ kind: 'CORRECTION', body: '' }), { schema: FollowUpFormSchema })
    expect(submission.status !== 'success' && submission.error?.body).toEqual(['Enter the note.'])
  })
})

describe("a call's printed terms", () => {
  it('say the instrument, action, entry, targets, stop-loss and horizon', () => {
    expect(callLines(BUY)).toEqual([
      { label: 'Instrument', value: 'NSE: HDFCBANK, ISIN INE040A01034' },
      { label: 'Action', value: 'Buy' },
      { label: 'Entry range', value: 'Rs. 1,500 to Rs. 1,520' },
      { label: 'Targets', value: 'Rs. 1,600, Rs. 1,650' },
      { label: 'Stop-loss', value: 'Rs. 1,450' },
      { label: 'Horizon', value: '3 months' },
    ])
  })
})
