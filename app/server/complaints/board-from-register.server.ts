import { COMPLAINT_SOURCES, nextMonth, type MonthKey } from '~/domain/complaint-board'
import {
  publishRefusal,
  registerMonthFigures,
  type PublishPath,
  type RegisterMonthFigures,
} from '~/domain/complaint-register-board'
import { indiaIsoDate, indiaMidnight } from '~/domain/dates'
import type { Prisma } from '~/generated/prisma/client'

/*
 * The complaint board's months computed from the register (I/O). Every function takes its client,
 * so the demo seed can use them with its own; app/server/complaints/board-publishing.server.ts wraps them
 * in the admin's audited transactions.
 */

type Client = Prisma.TransactionClient

/** The `@db.Date` value of a month's first day. */
const firstDayOf = (month: MonthKey): Date => new Date(`${month}-01T00:00:00Z`)
const monthKeyOf = (date: Date): MonthKey => date.toISOString().slice(0, 7)

/**
 * The complaints `month`'s figures depend on: received before it ended and not resolved before it
 * began (by the received_at and resolved_at indexes), as India calendar dates.
 */
export async function registerComplaintsForMonth(client: Client, month: MonthKey) {
  const start = indiaMidnight(`${month}-01`)
  const end = indiaMidnight(`${nextMonth(month)}-01`)
  const rows = await client.complaint.findMany({
    where: { receivedAt: { lt: end }, OR: [{ resolvedAt: null }, { resolvedAt: { gte: start } }] },
    select: { source: true, receivedAt: true, resolvedAt: true, impersonation: true },
  })
  return rows.map((row) => ({
    source: row.source,
    receivedOn: indiaIsoDate(row.receivedAt),
    // Resolved after the month ended counts as pending at its end.
    resolvedOn: row.resolvedAt && row.resolvedAt < end ? indiaIsoDate(row.resolvedAt) : null,
    impersonation: row.impersonation,
  }))
}

/** `month`'s figures as the register has them now. */
export async function computeRegisterMonth(client: Client, month: MonthKey): Promise<RegisterMonthFigures> {
  return registerMonthFigures(await registerComplaintsForMonth(client, month), month)
}

/** The first month the register covers: its earliest complaint's or its first published month, whichever is earlier. */
export async function firstRegisterMonth(client: Client): Promise<MonthKey | null> {
  const earliest = await client.complaint.findFirst({ orderBy: { receivedAt: 'asc' }, select: { receivedAt: true } })
  const firstPublished = await client.complaintBoardMonth.findFirst({
    where: { origin: 'REGISTER' },
    orderBy: { month: 'asc' },
    select: { month: true },
  })
  const candidates = [
    earliest ? indiaIsoDate(earliest.receivedAt).slice(0, 7) : null,
    firstPublished ? monthKeyOf(firstPublished.month) : null,
  ].filter((month): month is MonthKey => month !== null)
  return candidates.sort()[0] ?? null
}

export async function latestPublishedMonth(client: Client): Promise<MonthKey | null> {
  const latest = await client.complaintBoardMonth.findFirst({ orderBy: { month: 'desc' }, select: { month: true } })
  return latest ? monthKeyOf(latest.month) : null
}

export type PublishCheck = { latestPublished: MonthKey | null; firstRegisterMonth: MonthKey | null }

/** What publishing `month` by `path` is refused for now, or the state it was checked against. */
export async function checkPublish(
  client: Client,
  { month, path, lastEnded }: { month: MonthKey; path: PublishPath; lastEnded: MonthKey },
): Promise<{ refusal: string } | { refusal: null; check: PublishCheck }> {
  const latestPublished = await latestPublishedMonth(client)
  const firstRegister = await firstRegisterMonth(client)
  const alreadyPublished = (await client.complaintBoardMonth.count({ where: { month: firstDayOf(month) } })) > 0
  const refusal = publishRefusal({
    month,
    path,
    latestPublished,
    firstRegisterMonth: firstRegister,
    lastEnded,
    alreadyPublished,
  })
  return refusal ? { refusal } : { refusal: null, check: { latestPublished, firstRegisterMonth: firstRegister } }
}

/**
 * Stores `month` as computed from the register now: frozen from here on, whatever the register
 * later says. The month's primary key refuses a second publication, even a simultaneous one (P2002).
 */
export async function storeRegisterMonth(client: Client, month: MonthKey, now: Date): Promise<RegisterMonthFigures> {
  const computed = await computeRegisterMonth(client, month)
  await client.complaintBoardMonth.create({
    data: {
      month: firstDayOf(month),
      origin: 'REGISTER',
      publishedAt: now,
      impersonationComplaints: computed.impersonationComplaints,
    },
  })
  await client.complaintFigures.createMany({
    data: COMPLAINT_SOURCES.map((source) => ({ month: firstDayOf(month), source, ...computed.figures[source] })),
  })
  return computed
}
