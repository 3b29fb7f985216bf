import { beforeEach, describe, expect, it } from 'vitest'
import { invalidate } from '~/server/cache.server'
import { prisma } from '~/server/db.server'
import { ACTIVE_SERVICES_CACHE_KEY } from '~/server/catalog/services.server'
import { action, loader } from '~/routes/services'
import { serializeCart } from '~/server/payments/cart.server'
import { cookieOf, formRequest, getRequest, routeArgs } from '../support/route-requests'

async function loaderResult(cookie?: string) {
  const result = await loader(routeArgs(getRequest('/services', cookie)))
  return { ...result.data, setCookie: new Headers(result.init?.headers).get('Set-Cookie') }
}
const callLoader = async () => (await loader(routeArgs(getRequest('/services')))).data
const post = (fields: Record<string, string>, cookie?: string) =>
  action(routeArgs(formRequest('/services', fields, cookie)))

beforeEach(async () => {
  await prisma.service.deleteMany()
  invalidate(ACTIVE_SERVICES_CACHE_KEY)
})

describe('/services loader', () => {
  it('lists the active services in display order with only the fields the page renders', async () => {
    await prisma.service.createMany({
      data: [
        {
          name: 'Swing Trading Ideas',
          description: ['Weekly review'],
          pricePaise: 149_900,
          durationDays: 30,
          sortOrder: 2,
          riskLevel: 'HIGH',
          delivery: 'A review every week on the website',
        },
        {
          name: 'Equity Premium',
          description: ['Two ideas a week'],
          pricePaise: 299_900,
          durationDays: 30,
          sortOrder: 1,
          riskLevel: 'VERY_HIGH',
          delivery: 'Two ideas a week on the website and by e-mail',
        },
        {
          name: 'Retired Service',
          description: [],
          pricePaise: 100_000,
          durationDays: 30,
          sortOrder: 0,
          active: false,
          riskLevel: 'LOW',
          delivery: 'Nothing any more',
        },
      ],
    })
    const { services } = await callLoader()
    expect(services.map((service) => service.name)).toEqual(['Equity Premium', 'Swing Trading Ideas'])
    expect(Object.keys(services[0]!).sort()).toEqual([
      'delivery',
      'description',
      'durationDays',
      'id',
      'name',
      'pricePaise',
      'riskLevel',
    ])
    expect(services[0]).toMatchObject({
      description: ['Two ideas a week'],
      riskLevel: 'VERY_HIGH',
      delivery: 'Two ideas a week on the website and by e-mail',
      pricePaise: 299_900,
      durationDays: 30,
    })
  })

  it('serves the list from the cache until it is invalidated', async () => {
    await prisma.service.create({
      data: {
        name: 'Equity Premium',
        pricePaise: 299_900,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    expect((await callLoader()).services).toHaveLength(1)

    await prisma.service.create({
      data: {
        name: 'Commodity Insights',
        pricePaise: 199_900,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    expect((await callLoader()).services).toHaveLength(1)

    invalidate(ACTIVE_SERVICES_CACHE_KEY)
    expect((await callLoader()).services).toHaveLength(2)
  })

  it('has no services on an empty catalogue', async () => {
    expect((await callLoader()).services).toEqual([])
  })
})

describe('database constraints', () => {
  it('refuses a service without a positive price or duration', async () => {
    await expect(
      prisma.service.create({
        data: {
          name: 'Free',
          pricePaise: 0,
          durationDays: 30,
          riskLevel: 'HIGH',
          delivery: 'Ideas on the website as published',
        },
      }),
    ).rejects.toThrow()
    await expect(
      prisma.service.create({
        data: {
          name: 'Never',
          pricePaise: 100,
          durationDays: 0,
          riskLevel: 'HIGH',
          delivery: 'Ideas on the website as published',
        },
      }),
    ).rejects.toThrow()
  })
})

describe('the cart on /services', () => {
  it('adds and removes a service by id, keeping the cart in a signed cookie', async () => {
    const premium = await prisma.service.create({
      data: {
        name: 'Equity Premium',
        pricePaise: 299_900,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    const swing = await prisma.service.create({
      data: {
        name: 'Swing Trading Ideas',
        pricePaise: 149_900,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })

    const added = (await post({ intent: 'add', serviceId: premium.id })) as Response
    expect(added.status).toBe(302)
    const afterAdd = cookieOf(added.headers.get('Set-Cookie')!)
    const both = cookieOf(
      ((await post({ intent: 'add', serviceId: swing.id }, afterAdd)) as Response).headers.get('Set-Cookie')!,
    )
    expect((await loaderResult(both)).cartIds).toEqual([premium.id, swing.id])

    const removed = (await post({ intent: 'remove', serviceId: premium.id }, both)) as Response
    expect((await loaderResult(cookieOf(removed.headers.get('Set-Cookie')!))).cartIds).toEqual([swing.id])
  })

  it('refuses to add a service that is not on sale', async () => {
    const retired = await prisma.service.create({
      data: {
        name: 'Retired',
        pricePaise: 100_000,
        durationDays: 30,
        active: false,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    expect(await post({ intent: 'add', serviceId: retired.id })).toMatchObject({
      data: { message: 'That service is no longer available.' },
      init: { status: 400 },
    })
  })

  it('drops services taken off sale from the cart on load, and says so', async () => {
    const kept = await prisma.service.create({
      data: {
        name: 'Kept',
        pricePaise: 100_000,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    const retired = await prisma.service.create({
      data: {
        name: 'Soon retired',
        pricePaise: 100_000,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    const cookie = cookieOf(await serializeCart([kept.id, retired.id]))
    await prisma.service.update({ where: { id: retired.id }, data: { active: false } })
    invalidate(ACTIVE_SERVICES_CACHE_KEY)

    const result = await loaderResult(cookie)
    expect(result.cartIds).toEqual([kept.id])
    expect(result.droppedCount).toBe(1)
    expect((await loaderResult(cookieOf(result.setCookie!))).cartIds).toEqual([kept.id])
  })
})
