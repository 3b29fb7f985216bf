import { z } from 'zod'
import { formatRupees } from './money'
import { type DeclaredFamilyMember, FAMILY_MEMBERS_MAX, FAMILY_RELATIONS } from './family-relations'
import { individualPan, profileDetailsSchema } from './profile'

/** Why we ask, in one sentence, with the cap the store is configured with. */
export function familyPansReason(feeCapPaise: number): string {
  return `SEBI caps the fees a research analyst may charge one family at Rs ${formatRupees(feeCapPaise)} a year; we count your family's payments together.`
}

export const OWN_PAN_AS_FAMILY_MESSAGE = "This is your own PAN. List your spouse's, children's or parents' PANs here."
export const REPEATED_FAMILY_PAN_MESSAGE = 'This PAN is already listed above.'
export const FAMILY_RELATION_MESSAGE = 'Choose how this person is related to you.'
export const FAMILY_PAN_MISSING_MESSAGE = "Enter this family member's PAN, or remove the row."
export const TOO_MANY_FAMILY_MEMBERS_MESSAGE = `List at most ${FAMILY_MEMBERS_MAX} family members.`

const familyPan = individualPan(FAMILY_PAN_MISSING_MESSAGE, 'the PAN')

// Conform reads an empty input as undefined: a row left empty is no member. Each error goes on its
// own row's field (`family[2].pan`), so the page says which row is wrong.
const familyRows = z
  .array(z.object({ pan: z.string().optional(), relation: z.string().optional() }).optional())
  .optional()
  .transform((rows, ctx) => {
    const declared: (DeclaredFamilyMember & { row: number })[] = []
    const seen = new Set<string>()
    ;(rows ?? []).forEach((row, index) => {
      if (!row?.pan && !row?.relation) return
      const issue = (field: 'pan' | 'relation', message: string) =>
        ctx.addIssue({ code: 'custom', path: [index, field], message })
      const pan = familyPan.safeParse(row.pan ?? '')
      if (!pan.success) issue('pan', row.pan ? pan.error.issues[0]!.message : FAMILY_PAN_MISSING_MESSAGE)
      else if (seen.has(pan.data)) issue('pan', REPEATED_FAMILY_PAN_MESSAGE)
      const relation = z.enum(FAMILY_RELATIONS).safeParse(row.relation)
      if (!relation.success) issue('relation', FAMILY_RELATION_MESSAGE)
      if (pan.success) seen.add(pan.data)
      if (pan.success && relation.success) declared.push({ pan: pan.data, relation: relation.data, row: index })
    })
    if (seen.size > FAMILY_MEMBERS_MAX) ctx.addIssue({ code: 'custom', message: TOO_MANY_FAMILY_MEMBERS_MESSAGE })
    return declared
  })

/** The customer's own PAN among their family's, refused on its row. */
function refuseOwnPan(ownPan: string | null, family: z.output<typeof familyRows>, ctx: z.RefinementCtx) {
  const own = ownPan?.trim().toUpperCase()
  for (const member of family) {
    if (member.pan === own)
      ctx.addIssue({ code: 'custom', path: ['family', member.row, 'pan'], message: OWN_PAN_AS_FAMILY_MESSAGE })
  }
}

const withoutRows = (family: z.output<typeof familyRows>): DeclaredFamilyMember[] =>
  family.map(({ pan, relation }) => ({ pan, relation }))

/** The family members form (after the profile is complete): the customer's own PAN is known. */
export function familyMembersSchema(ownPan: string | null) {
  return z
    .object({ family: familyRows })
    .superRefine(({ family }, ctx) => refuseOwnPan(ownPan, family, ctx))
    .transform(({ family }) => ({ family: withoutRows(family) }))
}

/** Step 1 of /details: the profile's details and, optionally, the family members' PANs. */
export function detailsWithFamilySchema(today: Date) {
  return profileDetailsSchema(today)
    .extend({ family: familyRows })
    .superRefine(({ pan, family }, ctx) => refuseOwnPan(pan, family, ctx))
    .transform(({ family, ...details }) => ({ details, family: withoutRows(family) }))
}

/**
 * The PANs whose payments count together for a customer: their own, the ones they declared, and
 * the PANs of customers who declared theirs (a spouse who named them). Not transitive: a
 * spouse's parent is the spouse's family, not the customer's.
 */
export function familyGroupPans(
  ownPan: string | null,
  declaredPans: readonly string[],
  declaredByPans: readonly (string | null)[],
): Set<string> {
  const pans = [ownPan, ...declaredPans, ...declaredByPans].filter((pan): pan is string => Boolean(pan))
  return new Set(pans.map((pan) => pan.trim().toUpperCase()))
}
