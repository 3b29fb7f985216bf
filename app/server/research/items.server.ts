import { formatIndiaDateTime } from '~/domain/dates'
import { formatAttachmentSize, type ResearchAttachmentRecord } from '~/domain/research-attachment'
import { callLines, ratingDefinitionLines, type CallRecord } from '~/domain/research-calls'
import { FOLLOW_UP_WORDS, followUpLines, type FollowUpRecord } from '~/domain/research-follow-ups'
import {
  disclosureLines,
  formatFingerprint,
  researchAnalystLine,
  type ResearchForm,
  type ResearchItemView,
  type ResearchRecord,
} from '~/domain/research'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { deleteResearchAttachments, storeResearchAttachment, type ResearchAttachmentUpload } from './attachment.server'

// Research items as the analyst writes them (docs/research.md): a draft is created from the form;
// publishing (publishing.server.ts) freezes it. No function here changes a published item.

export const researchItemSelect = {
  id: true,
  kind: true,
  status: true,
  title: true,
  body: true,
  financialInterest: true,
  ownershipOnePercent: true,
  compensationPastYear: true,
  otherConflict: true,
  aiToolsUsed: true,
  authorId: true,
  createdAt: true,
  publishedAt: true,
  analystName: true,
  sebiRegistrationNumber: true,
  bseEnlistmentNumber: true,
  contentSha256: true,
  signature: true,
  signingKeyFingerprint: true,
  services: { select: { service: { select: { id: true, name: true } } }, orderBy: { serviceId: 'asc' } },
  exchange: true,
  symbol: true,
  isin: true,
  callAction: true,
  entryLowPaise: true,
  entryHighPaise: true,
  targetsPaise: true,
  stopLossPaise: true,
  horizon: true,
  originalId: true,
  followUpKind: true,
  pricePaise: true,
  attachmentName: true,
  attachmentSize: true,
  attachmentSha256: true,
  original: { select: { id: true, title: true } },
  followUps: {
    where: { status: 'PUBLISHED' },
    select: { id: true, title: true, followUpKind: true, publishedAt: true },
    orderBy: [{ publishedAt: 'asc' }, { id: 'asc' }],
  },
} satisfies Prisma.ResearchItemSelect

export type ResearchItemRow = Prisma.ResearchItemGetPayload<{ select: typeof researchItemSelect }>

/** The services an item can be written for: every service, active or not, by name. */
export async function researchServiceChoices(): Promise<{ id: string; name: string; active: boolean }[]> {
  return prisma.service.findMany({ select: { id: true, name: true, active: true }, orderBy: { name: 'asc' } })
}

export type DraftResult = { ok: true; id: string } | { ok: false; field: 'serviceIds'; message: string }

/**
 * A new draft by `authorId`, audited in the same transaction; its PDF attachment, if any, is stored
 * first and deleted again if the draft is not written.
 */
export async function createResearchDraft(
  authorId: string,
  form: ResearchForm,
  now = new Date(),
  attachment: ResearchAttachmentUpload | null = null,
): Promise<DraftResult> {
  const serviceIds = [...new Set(form.serviceIds)]
  const known = await prisma.service.count({ where: { id: { in: serviceIds } } })
  if (known !== serviceIds.length)
    return { ok: false, field: 'serviceIds', message: 'Choose the services from the list.' }
  const stored = attachment ? await storeResearchAttachment(attachment) : null
  try {
    return { ok: true, id: (await writeDraft(authorId, form, serviceIds, stored, now)).id }
  } catch (error) {
    if (stored) await deleteResearchAttachments([stored.attachmentKey])
    throw error
  }
}

async function writeDraft(
  authorId: string,
  form: ResearchForm,
  serviceIds: string[],
  stored: Awaited<ReturnType<typeof storeResearchAttachment>> | null,
  now: Date,
) {
  return prisma.$transaction(async (tx) => {
    const created = await tx.researchItem.create({
      data: {
        title: form.title,
        body: form.body,
        financialInterest: form.financialInterest,
        ownershipOnePercent: form.ownershipOnePercent,
        compensationPastYear: form.compensationPastYear,
        otherConflict: form.otherConflict,
        aiToolsUsed: form.aiToolsUsed,
        ...(form.call ? { kind: 'CALL', ...callColumns(form.call) } : {}),
        ...stored,
        authorId,
        createdAt: now,
        services: { create: serviceIds.map((serviceId) => ({ serviceId })) },
      },
      select: { id: true },
    })
    await recordAudit(
      tx,
      {
        actorId: authorId,
        action: 'research.draft',
        subjectType: 'research_item',
        subjectId: created.id,
        before: null,
        after: {
          title: form.title,
          serviceIds,
          kind: form.call ? 'CALL' : 'REPORT',
          ...(stored ? { attachmentSha256: stored.attachmentSha256, attachmentSize: stored.attachmentSize } : {}),
        },
      },
      now,
    )
    return created
  })
}

export async function researchItemForAdmin(
  id: string,
): Promise<(ResearchItemRow & { rollSize: number; scheduledAt: Date | null }) | null> {
  const item = await prisma.researchItem.findUnique({
    where: { id },
    select: { ...researchItemSelect, scheduledAt: true, rollSize: true },
  })
  if (!item) return null
  return { ...item, rollSize: item.rollSize ?? 0 }
}

/** The record a published row signs (null for a draft). */
export function researchRecordOf(item: ResearchItemRow): ResearchRecord | null {
  if (item.status !== 'PUBLISHED' || !item.publishedAt) return null
  return {
    id: item.id,
    kind: item.kind,
    title: item.title,
    body: item.body,
    serviceIds: item.services.map(({ service }) => service.id),
    disclosures: {
      financialInterest: item.financialInterest,
      ownershipOnePercent: item.ownershipOnePercent,
      compensationPastYear: item.compensationPastYear,
      otherConflict: item.otherConflict,
      aiToolsUsed: item.aiToolsUsed,
    },
    analyst: {
      name: item.analystName ?? '',
      sebiRegistrationNumber: item.sebiRegistrationNumber ?? '',
      bseEnlistmentNumber: item.bseEnlistmentNumber ?? '',
    },
    authorId: item.authorId,
    publishedAt: item.publishedAt,
    call: callOf(item),
    followUp: followUpOf(item),
    attachment: attachmentOf(item),
  }
}

/** The item's PDF attachment as signed: its SHA-256, size and name (null: none). */
export function attachmentOf(item: {
  attachmentName: string | null
  attachmentSize: number | null
  attachmentSha256: string | null
}): ResearchAttachmentRecord | null {
  const { attachmentName, attachmentSize, attachmentSha256 } = item
  if (attachmentName === null || attachmentSize === null || attachmentSha256 === null) return null
  return { sha256: attachmentSha256, size: attachmentSize, name: attachmentName }
}

/** The columns a call's terms are kept in. */
export function callColumns(call: CallRecord) {
  return {
    exchange: call.exchange,
    symbol: call.symbol,
    isin: call.isin,
    callAction: call.action,
    entryLowPaise: call.entryLowPaise,
    entryHighPaise: call.entryHighPaise,
    targetsPaise: call.targetsPaise,
    stopLossPaise: call.stopLossPaise,
    horizon: call.horizon,
  }
}

export function callOf(item: ResearchItemRow): CallRecord | null {
  if (item.kind !== 'CALL' || !item.callAction || item.entryLowPaise === null) return null
  return {
    exchange: item.exchange,
    symbol: item.symbol,
    isin: item.isin,
    action: item.callAction,
    entryLowPaise: item.entryLowPaise,
    entryHighPaise: item.entryHighPaise,
    targetsPaise: item.targetsPaise,
    stopLossPaise: item.stopLossPaise,
    horizon: item.horizon ?? '',
  }
}

function followUpOf(item: ResearchItemRow): FollowUpRecord | null {
  if (item.kind !== 'FOLLOW_UP' || !item.originalId || !item.followUpKind) return null
  return {
    originalId: item.originalId,
    kind: item.followUpKind,
    targetsPaise: item.targetsPaise,
    stopLossPaise: item.stopLossPaise,
    pricePaise: item.pricePaise,
  }
}

const KIND_WORDS = { REPORT: 'Report', CALL: 'Call' } as const

/** The page's view: a published item as it was signed; a draft with today's business details. */
export function researchItemView(item: ResearchItemRow): ResearchItemView {
  return {
    id: item.id,
    title: item.title,
    body: item.body,
    services: item.services.map(({ service }) => service.name).sort(),
    disclosures: disclosureLines(item),
    analystLine: researchAnalystLine(item.analystName ?? businessDetails.name),
    sebiRegistrationNumber: item.sebiRegistrationNumber ?? businessDetails.sebiRegistrationNumber,
    bseEnlistmentNumber: item.bseEnlistmentNumber ?? businessDetails.bseEnlistmentNumber,
    publishedAt: item.publishedAt ? formatIndiaDateTime(item.publishedAt) : null,
    contentSha256: item.contentSha256,
    signingKeyFingerprint: item.signingKeyFingerprint ? formatFingerprint(item.signingKeyFingerprint) : null,
    attachment: attachmentViewOf(item),
    ...researchKindView(item),
  }
}

function attachmentViewOf(item: ResearchItemRow): ResearchItemView['attachment'] {
  const attachment = attachmentOf(item)
  return attachment ? { ...attachment, size: formatAttachmentSize(attachment.size) } : null
}

function researchKindView(
  item: ResearchItemRow,
): Pick<ResearchItemView, 'kindWords' | 'facts' | 'ratingDefinitions' | 'bodyHeading' | 'original' | 'followUps'> {
  const call = callOf(item)
  const followUp = followUpOf(item)
  return {
    kindWords: followUp ? FOLLOW_UP_WORDS[followUp.kind] : KIND_WORDS[item.kind === 'CALL' ? 'CALL' : 'REPORT'],
    facts: call ? callLines(call) : followUp ? followUpLines(followUp) : [],
    ratingDefinitions: call ? ratingDefinitionLines() : [],
    bodyHeading: call ? 'Rationale' : followUp ? 'Note' : null,
    original: item.original,
    followUps: item.followUps.flatMap(({ id, title, followUpKind, publishedAt }) =>
      followUpKind && publishedAt
        ? [{ id, title, kindWords: FOLLOW_UP_WORDS[followUpKind], publishedAt: formatIndiaDateTime(publishedAt) }]
        : [],
    ),
  }
}
