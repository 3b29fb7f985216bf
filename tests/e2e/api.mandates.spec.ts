import { expect, test } from '@playwright/test'
import { apiClient, expectJsonError, json } from './api-client'
import { withE2eDatabase } from './database'

// The apps' automatic renewal (docs/api.md, the mandates calls): the offer with its consent, turning
// it on with that consent's version and hash, the authorisation, and stopping it.

type MandateJson = { _id: string; state: string; amountPaise: number; authorisationUrl: string | null }
type Offer = { consentText: string; consentSha256: string; consentVersion: string; amountPaise: number }

test('offer, create with the consent shown, authorise, list, cancel once', async ({ playwright, baseURL }) => {
  const { context: api, xsrf, phone } = await apiClient(playwright.request, baseURL!, { completeProfile: true })
  const serviceId = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT u.id, s.id, now() - interval '20 days', now() + interval '10 days', 'e2e: running', u.id
         FROM users u, services s WHERE u.phone = $1 AND s.name = 'Swing Trading Ideas'
       RETURNING service_id AS id`,
      [phone],
    )
    await client.query(
      `SELECT pg_notify('research_store_cache', 'e2e subscriptions:' || id) FROM users WHERE phone = $1`,
      [phone],
    )
    return rows[0]!.id
  })

  const listed = await json(await api.get(`/api/v1/mandates?service=${serviceId}`))
  const { offer, refusal, mandates } = listed.data.data as { offer: Offer; refusal: null; mandates: MandateJson[] }
  expect(refusal).toBeNull()
  expect(mandates).toEqual([])
  expect(offer.amountPaise).toBe(149_900)
  expect(offer.consentText).toContain('The most any one charge can take is Rs. 1,499.')

  // The consent must be the one shown: another text's hash is refused, nothing is made.
  await expectJsonError(
    await api.post('/api/v1/mandates/create', {
      headers: xsrf,
      data: { service: serviceId, consentVersion: `autopay-${'b'.repeat(12)}`, consentSha256: 'b'.repeat(64) },
    }),
    409,
    'The terms of automatic renewal have changed. Please read them again and confirm.',
  )

  const created = await json(
    await api.post('/api/v1/mandates/create', {
      headers: xsrf,
      data: { service: serviceId, consentVersion: offer.consentVersion, consentSha256: offer.consentSha256 },
    }),
  )
  const { mandate, authorisationUrl } = created.data as { mandate: MandateJson; authorisationUrl: string }
  expect(mandate.state).toBe('CREATED')
  expect(authorisationUrl).toContain('/dev/sandbox/authorise?subscription_id=')
  await expectJsonError(
    await api.post('/api/v1/mandates/create', {
      headers: xsrf,
      data: { service: serviceId, consentVersion: offer.consentVersion, consentSha256: offer.consentSha256 },
    }),
    409,
    'Swing Trading Ideas already renews automatically.',
  )

  // The customer approves it at the gateway's page (the sandbox's stand-in posts the webhook).
  const authorised = await api.post(authorisationUrl, { form: { step: 'authorise' }, maxRedirects: 0 })
  expect(authorised.status()).toBe(303)
  const after = (await json(await api.get('/api/v1/mandates'))).data.data as { mandates: MandateJson[] }
  expect(after.mandates).toMatchObject([{ _id: mandate._id, state: 'ACTIVE', amountPaise: 149_900 }])
  expect(after.mandates[0]!.authorisationUrl).toBeNull()

  const cancel = () => api.post('/api/v1/mandates/cancel', { headers: xsrf, data: { mandate: mandate._id } })
  expect((await json(await cancel())).data).toEqual({ cancelled: true })
  expect((await json(await cancel())).data).toEqual({ cancelled: false })
  const stopped = (await json(await api.get('/api/v1/mandates'))).data.data as { mandates: MandateJson[] }
  expect(stopped.mandates).toMatchObject([{ _id: mandate._id, state: 'CANCELLED' }])
})
