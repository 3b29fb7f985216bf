import { formatIndiaDateTime, MS_PER_DAY } from '~/domain/dates'
import { readPageRequest } from '~/domain/keyset'
import {
  indiaDateTimeLocal,
  RESEARCH_KIND_LABELS,
  RESEARCH_SCHEDULE_HORIZON_DAYS,
  RESEARCH_STATUS_LABELS,
  readResearchListFilter,
  researchChannelLabel,
  type ResearchKindName,
  type ResearchStatusName,
} from '~/domain/research-desk'
import { researchItemsForAdmin } from '~/server/research/admin-list.server'
import { deliveryCounts, failedDeliveries, rollPage } from '~/server/research/delivery-log.server'
import { researchServiceChoices } from '~/server/research/items.server'
import { countResearchReach } from '~/server/research/reach.server'

// View models of the analyst's desk (docs/research.md): the list page and the item page's preview,
// schedule and delivery log, with times formatted here so the pages read the same without JavaScript.

/** The filter form's names of the fields that did not read, for the page's message. */
const FILTER_FIELD_NAMES: Record<string, string> = {
  serviceId: 'service',
  kind: 'kind',
  status: 'status',
  from: 'from date',
  to: 'to date',
}

export async function researchListPage(url: URL) {
  const { filter, ignored } = readResearchListFilter(url.searchParams)
  const { page, invalid } = readPageRequest(url.searchParams, 'uuid')
  const [items, services] = await Promise.all([researchItemsForAdmin(filter, page), researchServiceChoices()])
  return {
    filter,
    ignored: ignored.map((name) => FILTER_FIELD_NAMES[name] ?? name),
    invalidCursor: invalid,
    services: services.map(({ id, name }) => ({ value: id, label: name })),
    next: items.next,
    previous: items.previous,
    items: items.rows.map((item) => ({
      id: item.id,
      title: item.title,
      kind: RESEARCH_KIND_LABELS[item.kind as ResearchKindName] ?? item.kind,
      status: RESEARCH_STATUS_LABELS[item.status as ResearchStatusName] ?? item.status,
      when: formatIndiaDateTime(item.listedAt),
      scheduledFor: item.status === 'SCHEDULED' && item.scheduledAt ? formatIndiaDateTime(item.scheduledAt) : null,
      services: item.services.join(', '),
      rollSize: item.rollSize,
    })),
  }
}

/** A draft's or scheduled item's preview: whom publishing now would reach, per channel. */
export async function researchReachPreview(itemId: string, now: Date) {
  const reach = await countResearchReach(itemId, now)
  return {
    site: reach.site,
    channels: reach.channels.map(({ channel, customers }) => ({ label: researchChannelLabel(channel), customers })),
  }
}

/** A published item's delivery log: counts per channel, one page of the roll, the newest failures. */
export async function researchDeliveryLog(itemId: string, url: URL) {
  const { page, invalid } = readPageRequest(url.searchParams, 'uuid', false)
  const [counts, roll, failed] = await Promise.all([
    deliveryCounts(itemId),
    rollPage(itemId, page),
    failedDeliveries(itemId),
  ])
  return {
    counts: counts.map((row) => ({ ...row, label: researchChannelLabel(row.channel) })),
    failedTotal: counts.reduce((total, row) => total + row.failed, 0),
    invalidCursor: invalid,
    next: roll.next,
    previous: roll.previous,
    roll: roll.rows.map((row) => ({
      userId: row.userId,
      name: row.name,
      phone: row.phone,
      deliveredAt: formatIndiaDateTime(row.deliveredAt),
      channels: row.channels
        .map(({ channel, status }) => `${researchChannelLabel(channel)}: ${status.toLowerCase()}`)
        .join(', '),
    })),
    failed: failed.map((row) => ({
      id: row.id,
      userId: row.userId,
      name: row.name,
      phone: row.phone,
      channel: researchChannelLabel(row.channel),
      attempts: row.attempts,
      failedAt: formatIndiaDateTime(row.failedAt),
      reason: row.reason,
    })),
  }
}

/** The item page's desk: the schedule, a draft's reach, a published item's delivery log. */
export async function researchItemDesk(
  item: { id: string; status: string; scheduledAt: Date | null },
  url: URL,
  now: Date,
) {
  const published = item.status === 'PUBLISHED'
  return {
    scheduledFor: item.status === 'SCHEDULED' && item.scheduledAt ? formatIndiaDateTime(item.scheduledAt) : null,
    reach: published ? null : await researchReachPreview(item.id, now),
    scheduleBounds: {
      max: indiaDateTimeLocal(new Date(now.getTime() + RESEARCH_SCHEDULE_HORIZON_DAYS * MS_PER_DAY)),
    },
    deliveryLog: published ? await researchDeliveryLog(item.id, url) : null,
  }
}
