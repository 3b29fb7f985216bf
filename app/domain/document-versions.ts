// Versions of the Privacy Policy, the Investor Charter and the MITC (docs/decisions/053-document-versions.md). Their
// text is code (or the operator's official text); each text is a version, recorded when a store first starts with it
// and in force from then. A customer who acknowledged an earlier version acknowledges the current one before their
// next payment: the personal-data consent is given to the Privacy Policy's text, the charter and the MITC are shared
// again when they change. Pure rules, shared by the paying guards, the banner and the notice e-mail.

import { CONSENT_DOCUMENT_KINDS, REQUIRED_TO_PAY_KINDS, type ConsentDocumentKind } from './consent'

/** The documents versioned on their own (the terms have their own versions, with SEBI's 15-day notice). */
export const VERSIONED_DOCUMENT_KINDS = [
  'MITC',
  'INVESTOR_CHARTER',
  'PERSONAL_DATA',
] as const satisfies readonly ConsentDocumentKind[]
export type VersionedDocumentKind = (typeof VERSIONED_DOCUMENT_KINDS)[number]

export function isVersionedDocumentKind(kind: ConsentDocumentKind): kind is VersionedDocumentKind {
  return (VERSIONED_DOCUMENT_KINDS as readonly ConsentDocumentKind[]).includes(kind)
}

/** A document the customer must acknowledge before paying: never given (`changed` false), or given to an earlier text. */
export type DueAcknowledgement = { kind: ConsentDocumentKind; changed: boolean }

/**
 * What a customer with a complete profile acknowledges before the next payment, in onboarding's order: each document
 * of REQUIRED_TO_PAY_KINDS they never acknowledged, and each versioned document they acknowledged only at earlier
 * versions (a customer who never acknowledged the MITC on its own, having accepted it within the terms, is not asked).
 */
export function acknowledgementsDue(
  /** The customer's acceptances of any kind (a mandate's consent too): only the documents' kinds are read. */
  acknowledged: readonly { kind: string; version: string }[],
  current: Record<ConsentDocumentKind, string>,
): DueAcknowledgement[] {
  return CONSENT_DOCUMENT_KINDS.flatMap((kind): DueAcknowledgement[] => {
    const given = acknowledged.filter((row) => row.kind === kind)
    if (!given.length) return REQUIRED_TO_PAY_KINDS.includes(kind) ? [{ kind, changed: false }] : []
    if (!isVersionedDocumentKind(kind) || given.some((row) => row.version === current[kind])) return []
    return [{ kind, changed: true }]
  })
}
