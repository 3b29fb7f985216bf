// The family's relations and limits, without the validation (./family.ts): pages that only show or
// list family members load these and not Zod.

/**
 * SEBI's "family of client": the individual, their dependent spouse, dependent children and
 * dependent parents. A customer names their family members by PAN; the fee cap counts the
 * payments of everyone in the group together (docs/regulatory.md).
 */
export const FAMILY_RELATIONS = ['SPOUSE', 'CHILD', 'PARENT'] as const
export type FamilyRelation = (typeof FAMILY_RELATIONS)[number]

export const FAMILY_RELATION_LABELS: Record<FamilyRelation, string> = {
  SPOUSE: 'Spouse',
  CHILD: 'Child',
  PARENT: 'Parent',
}

/** A spouse, two parents and several children fit; more is a mistake or an attempt to game the count. */
export const FAMILY_MEMBERS_MAX = 10

export type DeclaredFamilyMember = { pan: string; relation: FamilyRelation }
