import { describe, expect, it } from 'vitest'
import {
  kraRecordAllowsPayment,
  kraRecordDifferences,
  kraRecordPaymentRefusal,
  kraRecordState,
  type PersonDetails,
} from '~/domain/kra-record-match'

const profile: PersonDetails = { name: 'asha rao', dob: '2001-05-17' }

describe('kraRecordDifferences', () => {
  it('takes the same person however the KRA prints the name', () => {
    for (const name of ['ASHA RAO', 'Ms. Asha Rao', 'RAO ASHA', 'A RAO', 'Asha  Rao'])
      expect(kraRecordDifferences(profile, { name, dob: '2001-05-17' }), name).toEqual([])
  })

  it('names another name, another date of birth, or both', () => {
    expect(kraRecordDifferences(profile, { name: 'RECORD NAME DIFFERS', dob: '2001-05-17' })).toEqual(['name'])
    expect(kraRecordDifferences(profile, { name: 'ASHA RAO', dob: '2000-05-17' })).toEqual(['dob'])
    expect(kraRecordDifferences(profile, { name: 'RAVI RAO', dob: '2000-05-17' })).toEqual(['name', 'dob'])
    // A surname alone is not the person's name.
    expect(kraRecordDifferences(profile, { name: 'RAO', dob: null })).toEqual(['name'])
  })

  it('does not compare what the KRA did not give', () => {
    expect(kraRecordDifferences(profile, { name: null, dob: null })).toEqual([])
  })
})

describe('kraRecordState', () => {
  const record = { name: 'RECORD NAME DIFFERS', dob: '2001-05-17' }
  const reviewedFor = { profile, record }

  it('a matching record allows paying without any decision', () => {
    const state = kraRecordState(profile, { name: 'ASHA RAO', dob: '2001-05-17' }, null)
    expect(state).toEqual({ kind: 'match' })
    expect(kraRecordAllowsPayment(state)).toBe(true)
  })

  it('a record that differs waits for the admin, then follows the decision', () => {
    const waiting = kraRecordState(profile, record, null)
    expect(waiting).toEqual({ kind: 'awaiting-review', differences: ['name'] })
    expect(kraRecordAllowsPayment(waiting)).toBe(false)
    const accepted = kraRecordState(profile, record, { decision: 'ACCEPTED', reviewedFor })
    expect(kraRecordAllowsPayment(accepted)).toBe(true)
    const asked = kraRecordState(profile, record, { decision: 'CORRECTION_ASKED', reviewedFor })
    expect(asked.kind).toBe('correction-asked')
    expect(kraRecordAllowsPayment(asked)).toBe(false)
  })

  it('a decision made on other values does not count', () => {
    const otherRecord = { name: 'SOMEONE ELSE', dob: '2001-05-17' }
    expect(kraRecordState(profile, otherRecord, { decision: 'ACCEPTED', reviewedFor }).kind).toBe('awaiting-review')
    const otherProfile = { name: 'asha k rao', dob: '2001-05-17' }
    expect(kraRecordState(otherProfile, record, { decision: 'ACCEPTED', reviewedFor }).kind).toBe('awaiting-review')
  })
})

describe('kraRecordPaymentRefusal', () => {
  it('says what differs and what to do, without paths', () => {
    const waiting = kraRecordPaymentRefusal(
      { kind: 'awaiting-review', differences: ['dob'] },
      'help@example.in',
    ) as string
    expect(waiting).toBe(
      'You cannot pay yet: the date of birth the KYC registration agency (KRA) holds for your PAN is not the date of birth in your profile. The analyst will check whether the record is yours; you can pay once they have. If your profile is wrong, ask for a correction on your KYC details page. Questions: help@example.in.',
    )
    const asked = kraRecordPaymentRefusal(
      { kind: 'correction-asked', differences: ['name', 'dob'] },
      'help@example.in',
    ) as string
    expect(asked).toContain('the name and date of birth the KYC registration agency (KRA) holds for your PAN are not')
    expect(asked).toContain('asks you to correct your details: ask for a correction on your KYC details page')
    for (const text of [waiting, asked]) expect(text).not.toMatch(/\//)
  })

  it('says nothing when paying is allowed', () => {
    expect(kraRecordPaymentRefusal({ kind: 'match' }, 'help@example.in')).toBeUndefined()
    expect(kraRecordPaymentRefusal({ kind: 'accepted', differences: ['name'] }, 'help@example.in')).toBeUndefined()
  })
})
