import { readPageRequest, type PageRequest } from './keyset'

// The query string of a customer's research list (/research and GET /api/v1/research): which
// service, which page. Anything the list did not write is reported, never thrown.

/** Items per page of /research and GET /api/v1/research (docs/limits.md). */
export const CUSTOMER_RESEARCH_PAGE_SIZE = 20

/** Said when ?service= names none of the customer's services: the list shows every service. */
export const UNKNOWN_SERVICE_FILTER_MESSAGE = 'That service is not one of yours; showing research of every service.'

export type ResearchListQuery = {
  serviceId: string | null
  page: PageRequest
  invalidService: boolean
  invalidCursor: boolean
}

/** `service` must be one of `serviceIds` (empty: every service); the cursor as readPageRequest reads it. */
export function readResearchListQuery(params: URLSearchParams, serviceIds: readonly string[]): ResearchListQuery {
  const services = params.getAll('service')
  const asked = services.length === 1 ? services[0]! : services.length === 0 ? '' : null
  const known = asked !== null && (asked === '' || serviceIds.includes(asked))
  const { page, invalid } = readPageRequest(params, 'uuid')
  return {
    serviceId: known && asked !== '' ? asked : null,
    page,
    invalidService: !known,
    invalidCursor: invalid,
  }
}
