import type { RiskLevel } from '~/domain/risk-levels'
import { prisma } from '../db.server'
import { cached } from '../cache.server'

export const ACTIVE_SERVICES_CACHE_KEY = 'services:active'

/** Only the fields a page renders: loader data is serialised into the HTML a second time. */
export type ServiceListing = {
  id: string
  name: string
  description: string[]
  pricePaise: number
  durationDays: number
  riskLevel: RiskLevel
  /** How and how often the research is delivered. */
  delivery: string
}

export function getActiveServices(): Promise<ServiceListing[]> {
  return cached(ACTIVE_SERVICES_CACHE_KEY, () =>
    prisma.service.findMany({
      where: { active: true },
      orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }],
      select: {
        id: true,
        name: true,
        description: true,
        pricePaise: true,
        durationDays: true,
        riskLevel: true,
        delivery: true,
      },
    }),
  )
}
