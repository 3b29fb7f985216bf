import { expect, test } from '@playwright/test'
import {
  agreementDocuments,
  apiClient,
  availableServices,
  cartTotal,
  checkoutBody,
  expectJsonError,
  json,
  PNG_1X1,
  PROFILE_DETAILS,
} from './api-client'
import { uniquePan } from '../support/sample-customer'

// One onboarding, whatever the channel (docs/api.md, set-agreement): through the API a customer
// acknowledges what the wizard's page asks for, each document at its current version, only after
// an adult date of birth; and a customer onboarded without the charter or the data consent gives
// them before the next payment.

const KINDS = ['TERMS', 'MITC', 'CONSENT_STATEMENT', 'INVESTOR_CHARTER', 'PERSONAL_DATA']

const uploadCard = (api: Awaited<ReturnType<typeof apiClient>>) =>
  api.context.post('/api/v1/users/set-pancard', {
    headers: api.xsrf,
    multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  })

test('the API asks for an adult date of birth, then for every document at its current version', async ({
  playwright,
  baseURL,
}) => {
  const client = await apiClient(playwright.request, baseURL!, {})
  const { context: api, xsrf } = client
  const agree = (data?: unknown) =>
    api.post('/api/v1/users/set-agreement', { headers: xsrf, ...(data === undefined ? {} : { data }) })

  // Before any details: neither the PAN card nor the agreement.
  await expectJsonError(await uploadCard(client), 409, /^Save your details first/)
  await expectJsonError(await agree(), 409, /^Save your details first/)
  // A minor's details are refused, and the steps after them stay closed.
  const minor = await api.post('/api/v1/users/set-details', {
    headers: xsrf,
    data: { ...PROFILE_DETAILS, pan: uniquePan(), dob: `${new Date().getUTCFullYear() - 10}-01-01` },
  })
  expect((await expectJsonError(minor, 400)).errors.dob).toEqual(['You must be 18 or older to subscribe.'])
  await expectJsonError(await uploadCard(client), 409, /^Save your details first/)

  const details = await api.post('/api/v1/users/set-details', {
    headers: xsrf,
    data: { ...PROFILE_DETAILS, pan: uniquePan() },
  })
  expect(details.status()).toBe(200)
  expect((await uploadCard(client)).status()).toBe(200)

  // GET /api/v1/agreement lists the documents and their versions: what set-agreement asks for.
  const current = await agreementDocuments(api)
  expect(Object.keys(current)).toEqual(KINDS)

  // The original clients' body-less call: 409 naming each document with its current version.
  const bodyless = await expectJsonError(await agree(), 409)
  for (const kind of KINDS) expect(bodyless.message).toContain(current[kind])
  expect(bodyless.data).toEqual({ version: current.TERMS, documents: current, missing: KINDS })

  // One document left out.
  const { PERSONAL_DATA: _privacy, ...withoutPrivacy } = current
  const missing = await expectJsonError(await agree({ documents: withoutPrivacy }), 409, /Privacy Policy \(privacy-/)
  expect(missing.data.missing).toEqual(['PERSONAL_DATA'])

  // A version that is not current.
  const stale = await expectJsonError(
    await agree({ documents: { ...current, INVESTOR_CHARTER: 'charter-000000000000' } }),
    409,
    new RegExp(`Investor Charter \\(${current.INVESTOR_CHARTER}\\)`),
  )
  expect(stale.data.stale).toEqual(['INVESTOR_CHARTER'])
  expect((await json(await api.get('/api/v1/users/current-user'))).data.currentUser.agreement).toBe(false)

  // The full list: accepted, and the profile is complete.
  expect(await json(await agree({ documents: current }))).toEqual({
    message: 'Agreement accepted.',
    data: { agreement: true, version: current.TERMS, documents: current },
  })
  expect((await json(await api.get('/api/v1/users/current-user'))).data.currentUser.agreement).toBe(true)
})

test('a customer onboarded without the charter or the data consent gives them before the next payment', async ({
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!, {
    completeProfile: true,
    acknowledged: ['TERMS', 'MITC', 'CONSENT_STATEMENT'],
  })
  const cart = (await availableServices(api)).slice(0, 1)
  const createOrder = () =>
    api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, cartTotal(cart)) })
  const current = await agreementDocuments(api)

  const refused = await expectJsonError(
    await createOrder(),
    409,
    `Before your next payment, acknowledge: Investor Charter (${current.INVESTOR_CHARTER}), Privacy Policy (${current.PERSONAL_DATA}). Read them at GET /api/v1/agreement and accept them with POST /api/v1/users/set-agreement (every document, at its current version), or at /consents/accept on the website.`,
  )
  expect(refused.data).toEqual({ missing: ['INVESTOR_CHARTER', 'PERSONAL_DATA'], documents: current })

  expect(
    (await api.post('/api/v1/users/set-agreement', { headers: xsrf, data: { documents: current } })).status(),
  ).toBe(200)
  const opened = await json(await createOrder())
  expect(opened.message).toBe('Order created.')
  expect(opened.data.data.order.amount).toBe(cartTotal(cart) * 100)
})
