import { describe, expect, it } from 'vitest'
import {
  detailsWithFamilySchema,
  FAMILY_PAN_MISSING_MESSAGE,
  FAMILY_RELATION_MESSAGE,
  familyGroupPans,
  familyMembersSchema,
  familyPansReason,
  OWN_PAN_AS_FAMILY_MESSAGE,
  REPEATED_FAMILY_PAN_MESSAGE,
  TOO_MANY_FAMILY_MEMBERS_MESSAGE,
} from '~/domain/family'
import { FAMILY_MEMBERS_MAX } from '~/domain/family-relations'
import { SEBI_FEE_CAP_PAISE } from '~/domain/fee-cap'

const OWN = 'ABCPE1234F'
const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]))

describe('familyMembersSchema', () => {
  const parse = (family: unknown) => familyMembersSchema(OWN).safeParse({ family })

  it('reads the filled rows upper-cased and leaves out the empty ones', () => {
    const result = parse([
      { pan: ' bcdpf2345g ', relation: 'SPOUSE' },
      {},
      undefined,
      { pan: 'CDEPG3456H', relation: 'CHILD' },
    ])
    expect(result.data).toEqual({
      family: [
        { pan: 'BCDPF2345G', relation: 'SPOUSE' },
        { pan: 'CDEPG3456H', relation: 'CHILD' },
      ],
    })
  })

  it('declares no one when nothing is sent', () => {
    expect(familyMembersSchema(OWN).parse({})).toEqual({ family: [] })
  })

  it('says which row is wrong, by its index', () => {
    const result = parse([
      { pan: 'BCDPF2345G', relation: 'SPOUSE' },
      { pan: 'BCDCF2345G', relation: 'CHILD' },
      { pan: 'AB12', relation: 'PARENT' },
      { relation: 'PARENT' },
      { pan: 'DEFPH4567J' },
      { pan: 'bcdpf2345g', relation: 'PARENT' },
    ])
    expect(errorsOf(result)).toEqual({
      'family.1.pan': "This is not an individual's PAN: its fourth letter must be P.",
      'family.2.pan': 'Enter the PAN as 5 letters, 4 digits and 1 letter, like ABCPE1234F.',
      'family.3.pan': FAMILY_PAN_MISSING_MESSAGE,
      'family.4.relation': FAMILY_RELATION_MESSAGE,
      'family.5.pan': REPEATED_FAMILY_PAN_MESSAGE,
    })
  })

  it("refuses the customer's own PAN on its row", () => {
    expect(errorsOf(parse([{}, { pan: 'abcpe1234f', relation: 'SPOUSE' }]))).toEqual({
      'family.1.pan': OWN_PAN_AS_FAMILY_MESSAGE,
    })
  })

  it(`takes at most ${FAMILY_MEMBERS_MAX} members`, () => {
    const members = (count: number) =>
      Array.from({ length: count }, (_, index) => ({
        pan: `BCDPF${String(index).padStart(4, '0')}G`,
        relation: 'CHILD',
      }))
    expect(parse(members(FAMILY_MEMBERS_MAX)).success).toBe(true)
    expect(errorsOf(parse(members(FAMILY_MEMBERS_MAX + 1)))).toEqual({ family: TOO_MANY_FAMILY_MEMBERS_MESSAGE })
  })
})

describe('detailsWithFamilySchema', () => {
  const details = { name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'abcpe1234f' }
  const today = new Date('2026-11-26T00:00:00Z')

  it('gives the details and the family apart', () => {
    const result = detailsWithFamilySchema(today).parse({
      ...details,
      family: [{ pan: 'BCDPF2345G', relation: 'PARENT' }],
    })
    expect(result).toEqual({
      details: { name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan: OWN },
      family: [{ pan: 'BCDPF2345G', relation: 'PARENT' }],
    })
  })

  it('refuses the PAN typed above as a family member', () => {
    const result = detailsWithFamilySchema(today).safeParse({ ...details, family: [{ pan: OWN, relation: 'SPOUSE' }] })
    expect(errorsOf(result)).toEqual({ 'family.0.pan': OWN_PAN_AS_FAMILY_MESSAGE })
  })

  it("checks the family rows even while the customer's own fields are wrong", () => {
    const result = detailsWithFamilySchema(today).safeParse({ ...details, name: '', family: [{ pan: 'X' }] })
    expect(Object.keys(errorsOf(result)).sort()).toEqual(['family.0.pan', 'family.0.relation', 'name'])
  })
})

describe('familyGroupPans', () => {
  it("is the customer's PAN, the PANs they declared and the PANs of those who declared theirs", () => {
    expect(familyGroupPans('ABCPE1234F', ['BCDPF2345G', 'cdepg3456h'], ['DEFPH4567J', null])).toEqual(
      new Set(['ABCPE1234F', 'BCDPF2345G', 'CDEPG3456H', 'DEFPH4567J']),
    )
  })

  it('counts a PAN named both ways once', () => {
    expect(familyGroupPans('ABCPE1234F', ['BCDPF2345G'], ['BCDPF2345G'])).toEqual(new Set(['ABCPE1234F', 'BCDPF2345G']))
  })

  it('is empty for a customer with no PAN yet and no family', () => {
    expect(familyGroupPans(null, [], [])).toEqual(new Set())
  })
})

it('says why we ask, with the configured cap', () => {
  expect(SEBI_FEE_CAP_PAISE).toBe(15_100_000)
  expect(familyPansReason(SEBI_FEE_CAP_PAISE)).toBe(
    "SEBI caps the fees a research analyst may charge one family at Rs 1,51,000 a year; we count your family's payments together.",
  )
})
