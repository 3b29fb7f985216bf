import { formatIndiaDateTime } from '~/domain/dates'
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
} satisfies Prisma.ResearchItemSelect

export type ResearchItemRow = Prisma.ResearchItemGetPayload<{ select: typeof researchItemSelect }>

/** The services an item can be written for: every service, active or not, by name. */
export async function researchServiceChoices(): Promise<{ id: string; name: string; active: boolean }[]> {
  return prisma.service.findMany({ select: { id: true, name: true, active: true }, orderBy: { name: 'asc' } })
}

export type DraftResult = { ok: true; id: string } | { ok: false; field: 'serviceIds'; message: string }

/** A new draft by `authorId`, audited in the same transaction. */
export async function createResearchDraft(
  authorId: string,
  form: ResearchForm,
  now = new Date(),
): Promise<DraftResult> {
  const serviceIds = [...new Set(form.serviceIds)]
  const known = await prisma.service.count({ where: { id: { in: serviceIds } } })
  if (known !== serviceIds.length)
    return { ok: false, field: 'serviceIds', message: 'Choose the services from the list.' }
  const item = await prisma.$transaction(async (tx) => {
    const created = await tx.researchItem.create({
      data: {
        title: form.title,
        body: form.body,
        financialInterest: form.financialInterest,
        ownershipOnePercent: form.ownershipOnePercent,
        compensationPastYear: form.compensationPastYear,
        otherConflict: form.otherConflict,
        aiToolsUsed: form.aiToolsUsed,
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
        after: { title: form.title, serviceIds },
      },
      now,
    )
    return created
  })
  return { ok: true, id: item.id }
}

export async function researchItemForAdmin(
  id: string,
): Promise<(ResearchItemRow & { rollSize: number; scheduledAt: Date | null }) | null> {
  const item = await prisma.researchItem.findUnique({
    where: { id },
    select: { ...researchItemSelect, scheduledAt: true },
  })
  if (!item) return null
  return { ...item, rollSize: await prisma.researchRollEntry.count({ where: { itemId: id } }) }
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
  }
}

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
  }
}
