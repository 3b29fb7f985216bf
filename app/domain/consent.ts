// What a customer acknowledges at onboarding, one record per document (docs/regulatory.md, Acceptances are records).
// Pure rules, shared by the wizard's page, the API and the server that records them.

export const CONSENT_DOCUMENT_KINDS = [
  'TERMS',
  'MITC',
  'CONSENT_STATEMENT',
  'INVESTOR_CHARTER',
  'PERSONAL_DATA',
] as const
export type ConsentDocumentKind = (typeof CONSENT_DOCUMENT_KINDS)[number]

export type ConsentDocumentInfo = {
  title: string
  /** Where the document reads as a page of its own (without JavaScript). */
  path: string
  /** The checkbox's words at the wizard's agreement step. */
  acknowledgement: string
  /** The version's prefix: the terms keep "agreement-", which the API's clients already know. */
  versionPrefix: string
}

export const CONSENT_DOCUMENTS: Record<ConsentDocumentKind, ConsentDocumentInfo> = {
  TERMS: {
    title: 'Terms and Conditions',
    path: '/terms-and-conditions',
    acknowledgement: 'I have read and accept the Terms and Conditions.',
    versionPrefix: 'agreement',
  },
  MITC: {
    title: 'Most Important Terms and Conditions (MITC)',
    path: '/mitc',
    acknowledgement: 'I have read and understood the Most Important Terms and Conditions (MITC).',
    versionPrefix: 'mitc',
  },
  CONSENT_STATEMENT: {
    title: 'Consent statement',
    path: '/terms-and-conditions#consent',
    acknowledgement: 'I give the consent statement above, in its words.',
    versionPrefix: 'consent',
  },
  INVESTOR_CHARTER: {
    title: 'Investor Charter',
    path: '/investor-charter',
    acknowledgement: 'I have read the Investor Charter for research analysts.',
    versionPrefix: 'charter',
  },
  PERSONAL_DATA: {
    title: 'Privacy Policy',
    path: '/privacy-policy',
    acknowledgement:
      'I consent to the processing of my personal data (name, e-mail, date of birth, PAN and PAN card, mobile number, payments) for the purposes the Privacy Policy sets out.',
    versionPrefix: 'privacy',
  },
}

/** The wizard's agreement step: every document, each ticked on its own. */
export const PAGE_ACKNOWLEDGED_KINDS: readonly ConsentDocumentKind[] = CONSENT_DOCUMENT_KINDS

/**
 * What `POST /api/v1/users/set-agreement` requires: the same acknowledgements as the wizard's page,
 * each named by its current version (one onboarding, whatever the channel: docs/api.md).
 */
export const API_ACKNOWLEDGED_KINDS: readonly ConsentDocumentKind[] = PAGE_ACKNOWLEDGED_KINDS

/**
 * The documents a customer must have acknowledged (at some version) before any payment: those an
 * API client could once leave out. A customer onboarded without one is asked for it at the next payment.
 */
export const REQUIRED_TO_PAY_KINDS: readonly ConsentDocumentKind[] = ['INVESTOR_CHARTER', 'PERSONAL_DATA']

/** "Investor Charter (charter-0123456789ab), Privacy Policy (privacy-…)": the documents with their current versions. */
export function documentsWithVersions(
  kinds: readonly ConsentDocumentKind[],
  current: Record<ConsentDocumentKind, string>,
): string {
  return kinds.map((kind) => `${CONSENT_DOCUMENTS[kind].title} (${current[kind]})`).join(', ')
}

/** The API's 409 for an acknowledgement list that is not the full, current one (set-agreement). */
export function apiAcknowledgementMessage(
  check: Extract<AcknowledgementCheck, { ok: false }>,
  current: Record<ConsentDocumentKind, string>,
): string {
  const named = documentsWithVersions(check.kinds, current)
  return check.reason === 'missing'
    ? `Acknowledge every onboarding document at its current version. Not acknowledged: ${named}. Read them at GET /api/v1/agreement and send { "documents": { KIND: version } } naming all of ${API_ACKNOWLEDGED_KINDS.join(', ')}.`
    : `These documents changed since the customer was shown them; their current versions: ${named}. Read them at GET /api/v1/agreement, show them and send those versions.`
}

/** The API's 409 on a payment call for a customer onboarded without a document of REQUIRED_TO_PAY_KINDS. */
export function consentsBeforePayingMessage(
  kinds: readonly ConsentDocumentKind[],
  current: Record<ConsentDocumentKind, string>,
): string {
  return `Before your next payment, acknowledge: ${documentsWithVersions(kinds, current)}. Read them at GET /api/v1/agreement and accept them with POST /api/v1/users/set-agreement (every document, at its current version), or at /consents/accept on the website.`
}

/** The form field of a document's checkbox; a ticked box sends the version the customer was shown. */
export function acknowledgementField(kind: ConsentDocumentKind): string {
  return `acknowledge-${kind}`
}

export function documentVersion(kind: ConsentDocumentKind, textSha256: string): string {
  return `${CONSENT_DOCUMENTS[kind].versionPrefix}-${textSha256.slice(0, 12)}`
}

/** The longest user agent kept with an acceptance (docs/limits.md); longer ones are cut. */
export const USER_AGENT_MAX_CHARS = 512

export function recordedUserAgent(userAgent: string | null): string | null {
  const trimmed = userAgent?.trim()
  return trimmed ? trimmed.slice(0, USER_AGENT_MAX_CHARS) : null
}

export type AcknowledgementCheck =
  | { ok: true; kinds: ConsentDocumentKind[] }
  | { ok: false; reason: 'missing'; kinds: ConsentDocumentKind[] }
  | { ok: false; reason: 'stale'; kinds: ConsentDocumentKind[] }

/**
 * The versions a customer acknowledged against the current ones: every required document must be
 * acknowledged (missing first, so an untouched form asks for the ticks), and each at its current
 * version (a stale one is refused: the text changed while the customer read it). Documents not
 * required are recorded when acknowledged at the current version, and refused when stale.
 */
export function checkAcknowledgements(
  current: Record<ConsentDocumentKind, string>,
  shown: Partial<Record<ConsentDocumentKind, string>>,
  required: readonly ConsentDocumentKind[],
): AcknowledgementCheck {
  const missing = required.filter((kind) => !shown[kind])
  if (missing.length) return { ok: false, reason: 'missing', kinds: missing }
  const given = CONSENT_DOCUMENT_KINDS.filter((kind) => shown[kind])
  const stale = given.filter((kind) => shown[kind] !== current[kind])
  if (stale.length) return { ok: false, reason: 'stale', kinds: stale }
  return { ok: true, kinds: given }
}

/** The message for a refused acknowledgement, naming the documents. */
export function acknowledgementMessage(check: Extract<AcknowledgementCheck, { ok: false }>): string {
  const titles = check.kinds.map((kind) => CONSENT_DOCUMENTS[kind].title).join(', ')
  return check.reason === 'missing'
    ? `Tick each box to continue. Not yet acknowledged: ${titles}.`
    : `These documents were updated while you were reading them: ${titles}. Please read this version and accept it.`
}

/** The acknowledgements a form sent: each ticked box's version, by document. */
export function acknowledgementsFromForm(
  form: FormData | URLSearchParams,
): Partial<Record<ConsentDocumentKind, string>> {
  const shown: Partial<Record<ConsentDocumentKind, string>> = {}
  for (const kind of CONSENT_DOCUMENT_KINDS) {
    const value = form.get(acknowledgementField(kind))
    if (typeof value === 'string' && value.trim()) shown[kind] = value.trim()
  }
  return shown
}
