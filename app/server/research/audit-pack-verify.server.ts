import { createHash, createPublicKey, type KeyObject } from 'node:crypto'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { canonicalResearchContent, formatFingerprint } from '~/domain/research'
import { attachmentEntryItemId, AUDIT_PACK_FILES, parseAuditPackRecord } from '~/domain/research-audit-pack'
import { describePublicKey, verifyResearch } from './signing.server'
import { zipEntries } from './audit-pack-zip.server'

// `npm run research:verify -- FILE` (scripts/research-verify.ts): every record of an audit pack checked
// against the key inside it, and optionally against the key the store publishes on /disclosure.

export type AlteredRecord = { line: number; id: string | null; title: string | null; problems: string[] }

export type PackVerification = {
  ok: boolean
  /** The pack key's fingerprint, as /disclosure prints it; null when the pack has none. */
  fingerprint: string | null
  /** Whether the pack's key is the one given; null when none was given. */
  matchesGivenKey: boolean | null
  records: number
  altered: AlteredRecord[]
  /** What is wrong with the pack as a whole (a file missing, rows missing). */
  problems: string[]
  /** Records' PDF attachments found in the pack and hashed against their signed SHA-256. */
  attachmentsChecked: number
  /** Records with a signed attachment whose file the pack does not include (only its hash is checked). */
  attachmentsNotIncluded: { id: string; title: string }[]
}

type AttachedFile = { sha256: string; size: number }

/** A public key as PEM (public-key.pem, or a file holding it) or as /disclosure's base64 of its DER. */
export function parsePublicKey(text: string): KeyObject {
  return text.includes('-----BEGIN')
    ? createPublicKey(text)
    : createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' })
}

export async function verifyAuditPack(
  file: string,
  { givenKey }: { givenKey?: KeyObject } = {},
): Promise<PackVerification> {
  const problems: string[] = []
  const keyText = await entryText(file, AUDIT_PACK_FILES.publicKey)
  const manifestText = await entryText(file, AUDIT_PACK_FILES.manifest)
  let packKey: KeyObject | null = null
  if (keyText === null) problems.push(`${AUDIT_PACK_FILES.publicKey} is missing`)
  else {
    try {
      packKey = parsePublicKey(keyText)
    } catch {
      problems.push(`${AUDIT_PACK_FILES.publicKey} is not a public key`)
    }
  }
  const fingerprint = packKey ? describePublicKey(packKey).fingerprint : null
  const matchesGivenKey =
    givenKey && fingerprint ? describePublicKey(givenKey).fingerprint === fingerprint : givenKey ? false : null
  if (matchesGivenKey === false) problems.push('the pack was not signed with the key given')

  const files = await attachedFiles(file)
  const attachments = { checked: 0, notIncluded: [] as PackVerification['attachmentsNotIncluded'] }
  const altered: AlteredRecord[] = []
  let records = 0
  const lines = await entryLines(file, AUDIT_PACK_FILES.recordsJson)
  if (!lines) problems.push(`${AUDIT_PACK_FILES.recordsJson} is missing`)
  else {
    let lineNumber = 0
    for await (const line of lines) {
      lineNumber++
      if (line === '') continue
      records++
      const result = checkRecordLine(line, lineNumber, packKey, fingerprint, files, attachments)
      if (result) altered.push(result)
    }
  }
  if (manifestText !== null) {
    const counted = manifestRecordCount(manifestText)
    if (counted !== null && counted !== records)
      problems.push(`the manifest counts ${counted} records, ${AUDIT_PACK_FILES.recordsJson} has ${records}`)
  } else problems.push(`${AUDIT_PACK_FILES.manifest} is missing`)
  return {
    ok: altered.length === 0 && problems.length === 0,
    fingerprint: fingerprint ? formatFingerprint(fingerprint) : null,
    matchesGivenKey,
    records,
    altered,
    problems,
    attachmentsChecked: attachments.checked,
    attachmentsNotIncluded: attachments.notIncluded,
  }
}

/** Every attachment file of the pack, hashed as it is read (one at a time, never held whole). */
async function attachedFiles(file: string): Promise<Map<string, AttachedFile>> {
  const found = new Map<string, AttachedFile>()
  for await (const entry of zipEntries(file)) {
    const itemId = attachmentEntryItemId(entry.name)
    if (!itemId) continue
    const hash = createHash('sha256')
    let size = 0
    for await (const chunk of await entry.open()) {
      hash.update(chunk as Buffer)
      size += (chunk as Buffer).byteLength
    }
    found.set(itemId, { sha256: hash.digest('hex'), size })
  }
  return found
}

/** What is wrong with one line of records.jsonl; null when its record is as it was signed. */
function checkRecordLine(
  line: string,
  lineNumber: number,
  key: KeyObject | null,
  keyFingerprint: string | null,
  files: Map<string, AttachedFile>,
  attachments: { checked: number; notIncluded: PackVerification['attachmentsNotIncluded'] },
): AlteredRecord | null {
  const pack = parseAuditPackRecord(line)
  if (!pack) return { line: lineNumber, id: idIn(line), title: null, problems: ['not a signed record'] }
  const problems: string[] = []
  let canonical: string | null = null
  try {
    canonical = canonicalResearchContent(pack.record)
  } catch {
    problems.push('its fields do not make a record')
  }
  if (canonical !== null && canonical !== pack.canonicalContent)
    problems.push('its fields differ from the text that was signed')
  if (pack.record.id !== pack.id) problems.push('its id differs from the record it holds')
  if (createHash('sha256').update(pack.canonicalContent, 'utf8').digest('hex') !== pack.contentSha256)
    problems.push('the signed text does not match its SHA-256')
  if (keyFingerprint && pack.signingKeyFingerprint !== keyFingerprint)
    // A record signed before the key was replaced: its key is not the one in this pack.
    problems.push(`signed with another key (fingerprint ${formatFingerprint(pack.signingKeyFingerprint)})`)
  else if (key && canonical !== null && !safeVerify(() => verifyResearch(pack.record, pack.signature, key)))
    problems.push('the signature does not verify')
  const signedAttachment = pack.record.attachment
  const attached = files.get(pack.id)
  if (signedAttachment && attached) {
    attachments.checked++
    if (attached.sha256 !== signedAttachment.sha256 || attached.size !== signedAttachment.size)
      problems.push('its attached PDF differs from the SHA-256 that was signed')
  } else if (signedAttachment) attachments.notIncluded.push({ id: pack.id, title: pack.record.title })
  else if (attached) problems.push('the pack holds a PDF for it, but none was signed with it')
  return problems.length ? { line: lineNumber, id: pack.id, title: pack.record.title, problems } : null
}

function safeVerify(check: () => boolean): boolean {
  try {
    return check()
  } catch {
    return false
  }
}

/** The id of a line too damaged to read as a record, if it can still be seen. */
function idIn(line: string): string | null {
  return /"id":"([0-9a-f-]{36})"/.exec(line)?.[1] ?? null
}

function manifestRecordCount(text: string): number | null {
  try {
    const records = (JSON.parse(text) as { rows?: { records?: unknown } }).rows?.records
    return typeof records === 'number' ? records : null
  } catch {
    return null
  }
}

async function entryStream(file: string, name: string): Promise<Readable | null> {
  for await (const entry of zipEntries(file)) {
    if (entry.name === name) return entry.open()
  }
  return null
}

async function entryText(file: string, name: string): Promise<string | null> {
  const stream = await entryStream(file, name)
  if (!stream) return null
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function entryLines(file: string, name: string): Promise<AsyncIterable<string> | null> {
  const stream = await entryStream(file, name)
  return stream ? createInterface({ input: stream, crlfDelay: Infinity }) : null
}
