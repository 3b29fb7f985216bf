import type { ServiceForm } from '~/domain/service-form'
import { isUuid } from '~/domain/uuid'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { invalidate } from '../cache.server'
import { prisma } from '../db.server'
import { ACTIVE_SERVICES_CACHE_KEY } from './services.server'
import {
  afterMandatesEndedForNewTerms,
  endMandatesForNewTerms,
  type MandateEndedForNewTerms,
} from '../payments/mandate-lifecycle.server'

const serviceSelect = {
  id: true,
  name: true,
  description: true,
  pricePaise: true,
  durationDays: true,
  riskLevel: true,
  delivery: true,
  active: true,
  sortOrder: true,
} as const

export type AdminService = Prisma.ServiceGetPayload<{ select: typeof serviceSelect }>

export type ServiceChange =
  { ok: true; serviceId: string } | { ok: false; status: 404 | 409; field?: 'name'; message: string }

const NAME_TAKEN: ServiceChange = {
  ok: false,
  status: 409,
  field: 'name',
  message: 'Another service already has this name.',
}
const NOT_FOUND: ServiceChange = { ok: false, status: 404, message: 'That service does not exist.' }

/** Every service, on sale first, in the order /services shows them. */
export function servicesForAdmin(): Promise<AdminService[]> {
  return prisma.service.findMany({
    select: serviceSelect,
    orderBy: [{ active: 'desc' }, { sortOrder: 'asc' }, { name: 'asc' }],
  })
}

export function serviceForAdmin(serviceId: string): Promise<AdminService | null> {
  return isUuid(serviceId)
    ? prisma.service.findUnique({ where: { id: serviceId }, select: serviceSelect })
    : Promise.resolve(null)
}

const snapshot = (service: AdminService | ServiceForm) => ({
  name: service.name,
  description: service.description,
  pricePaise: service.pricePaise,
  durationDays: service.durationDays,
  riskLevel: service.riskLevel,
  delivery: service.delivery,
  ...('active' in service ? { active: service.active } : {}),
})

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002'
}

/**
 * A new service, on sale at once, after the others. /services shows it immediately: every change
 * here drops the cached list. Payments already made keep the prices in their cart snapshot.
 */
export async function createService(actorId: string, form: ServiceForm, now = new Date()): Promise<ServiceChange> {
  try {
    const created = await prisma.$transaction(async (tx) => {
      const last = await tx.service.aggregate({ _max: { sortOrder: true } })
      const service = await tx.service.create({
        data: { ...form, sortOrder: (last._max.sortOrder ?? 0) + 1 },
        select: serviceSelect,
      })
      await recordAudit(
        tx,
        {
          actorId,
          action: 'service.create',
          subjectType: 'Service',
          subjectId: service.id,
          before: null,
          after: snapshot(service),
        },
        now,
      )
      return service
    })
    await invalidate(ACTIVE_SERVICES_CACHE_KEY)
    return { ok: true, serviceId: created.id }
  } catch (error) {
    if (isUniqueViolation(error)) return NAME_TAKEN
    throw error
  }
}

/**
 * Changes a service. A new price or period never changes a running automatic renewal silently: its
 * mandates at the old terms end in the same transaction (audited), and after commit are cancelled at
 * the gateway and each customer asked to authorise the new amount (docs/payments.md, "Renewals and mandates").
 */
export async function updateService(
  actorId: string,
  serviceId: string,
  form: ServiceForm,
  now = new Date(),
): Promise<ServiceChange> {
  if (!isUuid(serviceId)) return NOT_FOUND
  try {
    const changed = await prisma.$transaction(async (tx) => {
      const [before] = await tx.$queryRaw<
        { id: string }[]
      >`SELECT id::text FROM services WHERE id = ${serviceId}::uuid FOR UPDATE`
      if (!before) return null
      const old = await tx.service.findUniqueOrThrow({ where: { id: serviceId }, select: serviceSelect })
      const updated = await tx.service.update({ where: { id: serviceId }, data: form, select: serviceSelect })
      const endedMandates: MandateEndedForNewTerms[] =
        updated.pricePaise !== old.pricePaise || updated.durationDays !== old.durationDays
          ? await endMandatesForNewTerms(tx, updated, actorId, now)
          : []
      await recordAudit(
        tx,
        {
          actorId,
          action: 'service.update',
          subjectType: 'Service',
          subjectId: serviceId,
          before: snapshot(old),
          after: snapshot(updated),
        },
        now,
      )
      return { updated, endedMandates }
    })
    if (!changed) return NOT_FOUND
    await invalidate(ACTIVE_SERVICES_CACHE_KEY)
    await afterMandatesEndedForNewTerms(changed.endedMandates, changed.updated)
    return { ok: true, serviceId }
  } catch (error) {
    if (isUniqueViolation(error)) return NAME_TAKEN
    throw error
  }
}

/** Takes a service off sale (carts drop it on their next load) or puts it back. Subscriptions already bought run on. */
export async function setServiceOnSale(
  actorId: string,
  serviceId: string,
  active: boolean,
  now = new Date(),
): Promise<ServiceChange> {
  if (!isUuid(serviceId)) return NOT_FOUND
  const changed = await prisma.$transaction(async (tx) => {
    const { count } = await tx.service.updateMany({ where: { id: serviceId, active: !active }, data: { active } })
    if (count === 0) return (await tx.service.count({ where: { id: serviceId } })) > 0 ? 'unchanged' : 'missing'
    await recordAudit(
      tx,
      {
        actorId,
        action: active ? 'service.reactivate' : 'service.deactivate',
        subjectType: 'Service',
        subjectId: serviceId,
        before: { active: !active },
        after: { active },
      },
      now,
    )
    return 'changed'
  })
  if (changed === 'missing') return NOT_FOUND
  await invalidate(ACTIVE_SERVICES_CACHE_KEY)
  return { ok: true, serviceId }
}
