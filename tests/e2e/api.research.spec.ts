import { expect, test } from '@playwright/test'
import { CUSTOMER_RESEARCH_PAGE_SIZE } from '../../app/domain/research-list'
import { apiClient, expectJsonError, json } from './api-client'
import { withE2eDatabase } from './database'
import { readerWithResearch } from './research-helpers'

// GET /api/v1/research and /api/v1/research/:id (docs/api.md): the customer's research in the SPEC's
// envelope, paged by cursor, filtered by service; 404 for an item they may not read.

const idOf = (phone: string) =>
  withE2eDatabase(
    async (client) => (await client.query('SELECT id::text FROM users WHERE phone = $1', [phone])).rows[0].id as string,
  )

test('the API lists the customer research by page and service, shows one item, and answers 404 for another customer item', async ({
  playwright,
  baseURL,
}) => {
  const reader = await apiClient(playwright.request, baseURL!, { completeProfile: true })
  const outsider = await apiClient(playwright.request, baseURL!, { completeProfile: true })
  const count = CUSTOMER_RESEARCH_PAGE_SIZE + 3
  const { services, titles, ids } = await readerWithResearch(await idOf(reader.phone!), `api ${Date.now()}`, count)

  // Bad input first: a service not theirs, a cursor the call did not write, an id that is not one.
  await expectJsonError(await reader.context.get(`/api/v1/research?service=${ids[0]}`), 400)
  await expectJsonError(await reader.context.get('/api/v1/research?after=1_2'), 400)
  await expectJsonError(await reader.context.get('/api/v1/research/not-an-id'), 404)

  const first = (await json(await reader.context.get('/api/v1/research'))).data.data
  expect(first.research).toHaveLength(CUSTOMER_RESEARCH_PAGE_SIZE)
  expect(first.research[0]).toEqual({
    _id: ids[0],
    title: titles[0],
    services: [services[1]!.name],
    publishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    read: false,
    path: `/research/${ids[0]}`,
  })
  expect(first.previous).toBeNull()
  const second = (await json(await reader.context.get(`/api/v1/research?after=${first.next}`))).data.data
  expect(second.research.map((item: { _id: string }) => item._id)).toEqual(ids.slice(CUSTOMER_RESEARCH_PAGE_SIZE))
  expect(second.next).toBeNull()
  const alpha = (await json(await reader.context.get(`/api/v1/research?service=${services[0]!.id}`))).data.data
  expect(alpha.research.map((item: { _id: string }) => item._id)).toEqual(ids.filter((_, index) => index % 2 === 1))

  const item = (await json(await reader.context.get(`/api/v1/research/${ids[0]}`))).data.data.research
  expect(item).toMatchObject({ _id: ids[0], title: titles[0], body: 'Text.', services: [{ name: services[1]!.name }] })
  expect(item.disclosures).toContainEqual({ label: 'Any other material conflict of interest', answer: 'None' })
  const again = (await json(await reader.context.get('/api/v1/research'))).data.data
  expect(again.research[0].read).toBe(true)

  await expectJsonError(await outsider.context.get(`/api/v1/research/${ids[0]}`), 404)
  expect((await json(await outsider.context.get('/api/v1/research'))).data.data.research).toEqual([])
  await reader.context.dispose()
  await outsider.context.dispose()
})
