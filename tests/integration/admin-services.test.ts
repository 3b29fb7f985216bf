import { describe, expect, it } from 'vitest'
import * as editRoute from '~/routes/admin/service-edit'
import * as servicesRoute from '~/routes/admin/services'
import { createService, setServiceOnSale, updateService } from '~/server/catalog/service-editing.server'
import { prisma } from '~/server/db.server'
import { getActiveServices } from '~/server/catalog/services.server'
import { cartItemOf, createPaymentRow, createUser } from '../support/payment-fixtures'
import { formRequest, getRequest } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

type Handler = (args: { request: Request; params: object; context: object }) => Promise<unknown>

const form = (name: string) => ({
  name,
  description: ['Daily ideas', 'Weekly call'],
  pricePaise: 299_900,
  durationDays: 30,
  riskLevel: 'HIGH' as const,
  delivery: 'Two ideas a week on the website and by e-mail',
})
const uniqueName = (prefix: string) => `${prefix} ${crypto.randomUUID().slice(0, 8)}`

describe('admin services routes', () => {
  it('answer 404 without a session and for a customer, and change nothing', async () => {
    const { cookie } = await signedInUser({ role: 'CUSTOMER' })
    const fields = { name: uniqueName('Sneaky'), description: '', price: '1', durationDays: '1' }
    for (const sessionCookie of [undefined, cookie]) {
      const calls: [Handler, Request, object][] = [
        [servicesRoute.loader as Handler, getRequest('/admin/services', sessionCookie), {}],
        [
          servicesRoute.action as Handler,
          formRequest('/admin/services', { intent: 'deactivate', serviceId: crypto.randomUUID() }, sessionCookie),
          {},
        ],
        [editRoute.loader as Handler, getRequest('/admin/services/new', sessionCookie), {}],
        [editRoute.action as Handler, formRequest('/admin/services/new', fields, sessionCookie), {}],
      ]
      for (const [handler, request, params] of calls) {
        await expect(handler({ request, params, context: {} })).rejects.toMatchObject({ init: { status: 404 } })
      }
    }
    expect(await prisma.service.count({ where: { name: fields.name } })).toBe(0)
  })

  it('refuse invalid input with field messages and the typed values, creating nothing', async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const name = uniqueName('Bad')
    const result = (await editRoute.action({
      request: formRequest('/admin/services/new', { name, description: '', price: '0', durationDays: '400' }, cookie),
      params: {},
      context: {},
    } as never)) as {
      init: { status: number }
      data: { result: { initialValue: Record<string, unknown>; error: Record<string, string[] | null> } }
    }
    expect(result.init.status).toBe(400)
    expect(result.data.result.initialValue.price).toBe('0')
    // Risk level and delivery are required: left out, each gets its message too.
    expect(Object.keys(result.data.result.error).sort()).toEqual(['delivery', 'durationDays', 'price', 'riskLevel'])
    expect(await prisma.service.count({ where: { name } })).toBe(0)
  })
})

describe('admin service changes', () => {
  it('show on /services at once (the cached list is dropped) and are audited with before and after', async () => {
    const { userId: actorId } = await signedInUser({ role: 'ADMIN' })
    await getActiveServices() // cache the list
    const name = uniqueName('Options Desk')
    const created = await createService(actorId, form(name))
    if (!created.ok) throw new Error(created.message)
    expect((await getActiveServices()).map((service) => service.name)).toContain(name)

    await updateService(actorId, created.serviceId, { ...form(name), pricePaise: 349_900 })
    expect((await getActiveServices()).find((service) => service.id === created.serviceId)?.pricePaise).toBe(349_900)

    await setServiceOnSale(actorId, created.serviceId, false)
    expect((await getActiveServices()).map((service) => service.id)).not.toContain(created.serviceId)

    const audit = await prisma.auditLog.findMany({
      where: { subjectId: created.serviceId },
      orderBy: { createdAt: 'asc' },
      select: { action: true, actorId: true, before: true, after: true },
    })
    expect(audit.map((entry) => entry.action)).toEqual(['service.create', 'service.update', 'service.deactivate'])
    expect(audit.every((entry) => entry.actorId === actorId)).toBe(true)
    expect(audit[1]).toMatchObject({ before: { pricePaise: 299_900 }, after: { pricePaise: 349_900 } })
    expect(audit[0]).toMatchObject({
      after: { riskLevel: 'HIGH', delivery: 'Two ideas a week on the website and by e-mail' },
    })
  })

  it('leave past payments at the price they were paid at', async () => {
    const { userId: actorId } = await signedInUser({ role: 'ADMIN' })
    const created = await createService(actorId, form(uniqueName('Swing')))
    if (!created.ok) throw new Error(created.message)
    const service = await prisma.service.findUniqueOrThrow({ where: { id: created.serviceId } })
    const payment = await createPaymentRow(await createUser(), [cartItemOf(service)])

    await updateService(actorId, service.id, { ...form(service.name), pricePaise: 999_900 })
    const stored = await prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })
    expect(stored.amountPaise).toBe(299_900)
    expect(stored.cart).toEqual([expect.objectContaining({ serviceId: service.id, pricePaise: 299_900 })])
  })

  it('refuse a name another service has, and a service that does not exist', async () => {
    const { userId: actorId } = await signedInUser({ role: 'ADMIN' })
    const name = uniqueName('Commodity')
    await createService(actorId, form(name))
    expect(await createService(actorId, form(name))).toEqual({
      ok: false,
      status: 409,
      field: 'name',
      message: 'Another service already has this name.',
    })
    expect(await updateService(actorId, crypto.randomUUID(), form(uniqueName('Ghost')))).toMatchObject({
      ok: false,
      status: 404,
    })
    expect(await setServiceOnSale(actorId, 'not-a-uuid', false)).toMatchObject({ ok: false, status: 404 })
  })
})
