import { beforeEach, describe, expect, it } from 'vitest'
import { invalidate } from '~/server/cache.server'
import { prisma } from '~/server/db.server'
import { ACTIVE_SERVICES_CACHE_KEY } from '~/server/services.server'
import { loader } from '~/routes/services'

const callLoader = () => loader()

beforeEach(async () => {
  await prisma.service.deleteMany()
  invalidate(ACTIVE_SERVICES_CACHE_KEY)
})

describe('/services loader', () => {
  it('lists the active services in display order with only the fields the page renders', async () => {
    await prisma.service.createMany({
      data: [
        { name: 'Swing Trading Ideas', description: ['Weekly review'], pricePaise: 149_900, durationDays: 30, sortOrder: 2 },
        { name: 'Equity Premium', description: ['Two ideas a week', 'Risk level: HIGH'], pricePaise: 299_900, durationDays: 30, sortOrder: 1 },
        { name: 'Retired Service', description: [], pricePaise: 100_000, durationDays: 30, sortOrder: 0, active: false },
      ],
    })
    const { services } = await callLoader()
    expect(services.map((service) => service.name)).toEqual(['Equity Premium', 'Swing Trading Ideas'])
    expect(Object.keys(services[0]!).sort()).toEqual(['description', 'durationDays', 'id', 'name', 'pricePaise'])
    expect(services[0]).toMatchObject({ description: ['Two ideas a week', 'Risk level: HIGH'], pricePaise: 299_900, durationDays: 30 })
  })

  it('serves the list from the cache until it is invalidated', async () => {
    await prisma.service.create({ data: { name: 'Equity Premium', pricePaise: 299_900, durationDays: 30 } })
    expect((await callLoader()).services).toHaveLength(1)

    await prisma.service.create({ data: { name: 'Commodity Insights', pricePaise: 199_900, durationDays: 30 } })
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
    await expect(prisma.service.create({ data: { name: 'Free', pricePaise: 0, durationDays: 30 } })).rejects.toThrow()
    await expect(prisma.service.create({ data: { name: 'Never', pricePaise: 100, durationDays: 0 } })).rejects.toThrow()
  })
})
