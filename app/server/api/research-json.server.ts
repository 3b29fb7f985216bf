import { disclosureLines, researchAnalystLine } from '~/domain/research'
import type { ResearchListEntry } from '../research/delivered.server'
import { attachmentOf, type ResearchItemRow } from '../research/items.server'

// The research calls' JSON (docs/api.md, GET /research): the same items as /research, ids as `_id`
// like the store's other shapes, times as ISO instants.

export function researchEntryJson(entry: ResearchListEntry) {
  return {
    _id: entry.id,
    title: entry.title,
    services: entry.services,
    publishedAt: entry.publishedAt.toISOString(),
    read: entry.readAt !== null,
    path: `/research/${entry.id}`,
  }
}

/** A published item as signed: the body in the store's small markup (docs/research.md), to be shown as text. */
export function researchItemJson(item: ResearchItemRow) {
  return {
    _id: item.id,
    kind: item.kind,
    title: item.title,
    body: item.body,
    services: item.services.map(({ service }) => ({ _id: service.id, name: service.name })),
    disclosures: disclosureLines(item),
    analyst: researchAnalystLine(item.analystName ?? ''),
    sebiRegistrationNumber: item.sebiRegistrationNumber,
    bseEnlistmentNumber: item.bseEnlistmentNumber,
    publishedAt: item.publishedAt?.toISOString() ?? null,
    contentSha256: item.contentSha256,
    signature: item.signature,
    signingKeyFingerprint: item.signingKeyFingerprint,
    path: `/research/${item.id}`,
    /** The PDF attachment (its bytes from `path`, with the session cookie or token), or null. */
    attachment: attachmentJson(item),
  }
}

function attachmentJson(item: ResearchItemRow) {
  const attachment = attachmentOf(item)
  return attachment ? { ...attachment, path: `/research/${item.id}/attachment` } : null
}
