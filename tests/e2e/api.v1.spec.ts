import { expect, test } from '@playwright/test'
import {
  apiClient,
  availableServices,
  cartTotal,
  checkoutBody,
  expectJsonError,
  json,
  PNG_1X1,
  PROFILE_DETAILS,
  requestCode,
  sandboxPay,
  type ServiceEntry,
} from './api-client'
import { latestCode, uniqueMobile, uniquePan } from './sign-in-helpers'
import { serviceDeliveryText } from '../../app/domain/service-delivery'
import { DEMO_SERVICES } from '../../prisma/seed'

const MS_PER_DAY = 24 * 60 * 60_000
/** docs/api.md: JSON bodies above this are refused with 413. */
const JSON_BODY_MAX_BYTES = 64 * 1024

const GET_CALLS = [
  '/api/v1/users/current-user',
  '/api/v1/agreement',
  '/api/v1/services/get-available-services',
  '/api/v1/payments/pending-payments',
  '/api/v1/subscriptions/get-active-subscriptions',
]
const POST_CALLS = [
  '/api/v1/otp/request',
  '/api/v1/otp/verify',
  '/api/v1/users/logout',
  '/api/v1/users/refresh-token',
  '/api/v1/users/set-details',
  '/api/v1/users/set-pancard',
  '/api/v1/users/set-agreement',
  '/api/v1/users/request-correction',
  '/api/v1/services/get-specific-services',
  '/api/v1/payments/create-order',
  '/api/v1/payments/verify-payment',
  '/api/v1/payments/re-verify-payment',
  '/api/v1/payments/failed-payment',
  '/api/v1/payments/cancel-payment',
  '/api/v1/payments/manual-payment',
]

test('the whole customer journey through the API alone, as the existing client drives it', async ({
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  const number = `+91${uniqueMobile()}`

  // Sign in: the code comes from the dev outbox, as an SMS would bring it.
  const requested = await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })
  expect(await json(requested)).toEqual({
    message: 'We sent a 6-digit code to this number. It is valid for 5 minutes.',
  })
  const verified = await api.post('/api/v1/otp/verify', {
    headers: xsrf,
    data: { number, otp: await latestCode(api, number) },
  })
  expect(await json(verified)).toEqual({ message: 'Signed in.', data: { number } })
  const fresh = await json(await api.get('/api/v1/users/current-user'))
  expect(fresh).toEqual({
    data: {
      currentUser: {
        name: null,
        email: null,
        dob: null,
        pan: null,
        pancard: null,
        agreement: false,
        terms: { accepted: null, pending: null },
      },
    },
  })

  // The profile wizard's three steps (a PAN no other account has: one account per PAN).
  const pan = uniquePan()
  const details = await api.post('/api/v1/users/set-details', {
    headers: xsrf,
    data: { ...PROFILE_DETAILS, email: 'Asha@Example.in', pan: pan.toLowerCase() },
  })
  expect(await json(details)).toEqual({
    message: 'Details saved.',
    data: {
      details: { name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan },
      // The KRA's answer (the demo's fake validates a well-formed individual PAN).
      kyc: { status: 'VALIDATED', reference: expect.stringMatching(/^FAKE-/) },
    },
  })
  const card = await api.post('/api/v1/users/set-pancard', {
    headers: xsrf,
    multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  })
  expect(await json(card)).toEqual({ message: 'PAN card saved.', data: { pancard: '/details/pan-card' } })
  const agreement = (await json(await api.get('/api/v1/agreement'))).data
  expect(agreement).toEqual({
    version: expect.stringMatching(/^agreement-[0-9a-f]{12}$/),
    text: expect.stringMatching(/^Terms and Conditions\n\n/),
    kraCheckNotice: expect.stringContaining('we send your PAN and date of birth to a KYC Registration Agency (KRA)'),
    documents: expect.arrayContaining([
      expect.objectContaining({ kind: 'INVESTOR_CHARTER', version: expect.stringMatching(/^charter-[0-9a-f]{12}$/) }),
    ]),
  })
  // Every document the wizard's page asks for, each at the version the client showed.
  const documents = Object.fromEntries(
    (agreement.documents as { kind: string; version: string }[]).map((document) => [document.kind, document.version]),
  )
  const accepted = await api.post('/api/v1/users/set-agreement', { headers: xsrf, data: { documents } })
  expect(await json(accepted)).toEqual({
    message: 'Agreement accepted.',
    data: { agreement: true, version: agreement.version, documents },
  })
  expect((await json(await api.get('/api/v1/users/current-user'))).data.currentUser).toEqual({
    name: 'Asha Rao',
    email: 'asha@example.in',
    dob: '2001-05-17',
    pan,
    pancard: '/details/pan-card',
    agreement: true,
    // The terms accepted just now; a newer published version would show under pending.
    terms: { accepted: agreement.version, pending: null },
  })

  // The services, and the cart the client keeps of them.
  const services = await availableServices(api)
  const byName = (name: string) => services.find((entry) => entry.service.name === name)!
  const premium = byName('Equity Premium')
  expect(premium).toEqual({
    _id: premium.service._id,
    service: {
      _id: premium._id,
      name: 'Equity Premium',
      description: expect.arrayContaining([expect.any(String)]),
      price: 2999,
      duration: 30,
      riskLevel: 'HIGH',
      riskLevelLabel: 'High',
      delivery: serviceDeliveryText(DEMO_SERVICES[0].delivery),
    },
  })
  const cart: ServiceEntry[] = [premium, byName('Swing Trading Ideas')]
  const specific = await api.post('/api/v1/services/get-specific-services', {
    headers: xsrf,
    data: { services: cart.map((entry) => entry._id) },
  })
  expect((await json(specific)).data.data).toEqual(cart.map((entry) => entry.service))

  // Pay on website: create the order, pay it in the sandbox's checkout, verify.
  const created = await api.post('/api/v1/payments/create-order', {
    headers: xsrf,
    data: checkoutBody(cart, cartTotal(cart)),
  })
  const { order, key } = (await json(created)).data.data
  expect(order).toEqual({ id: expect.stringMatching(/^order_/), amount: cartTotal(cart) * 100, currency: 'INR' })
  expect(key).toBe('rzp_test_sandbox')
  const { razorpayResponse } = await sandboxPay(api, order.id)
  const paidAt = Date.now()
  const verify = await api.post('/api/v1/payments/verify-payment', { headers: xsrf, data: { razorpayResponse } })
  expect(verify.status()).toBe(200)
  expect((await json(verify)).data.status).toBe('paid')
  const active = (await json(await api.get('/api/v1/subscriptions/get-active-subscriptions'))).data.data
    .activeSubscriptions
  expect(active).toHaveLength(cart.length)
  for (const entry of cart) {
    const subscription = active.find((candidate: { service: string }) => candidate.service === entry._id)
    expect(subscription.endDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(Math.abs(Date.parse(subscription.endDate) - (paidAt + entry.service.duration * MS_PER_DAY))).toBeLessThan(
      60_000,
    )
  }

  // Pay manually for another service: the claim waits for the team, under pending-payments.
  const commodity = byName('Commodity Insights')
  const manual = await api.post('/api/v1/payments/manual-payment', {
    headers: xsrf,
    data: checkoutBody([commodity], commodity.service.price),
  })
  const claim = (await json(manual)).data
  expect(claim).toEqual({
    paymentId: expect.any(String),
    amount: commodity.service.price * 100,
    expiresAt: expect.any(String),
    created: true,
  })
  const pending = (await json(await api.get('/api/v1/payments/pending-payments'))).data.data.payments
  expect(pending).toEqual([
    {
      _id: claim.paymentId,
      paymentMethod: 'manual',
      manualObject: { amount: commodity.service.price * 100, currency: 'INR', notes: { cart: expect.any(String) } },
      createdAt: expect.any(String),
      expiresAt: claim.expiresAt,
      state: 'awaiting-verification',
    },
  ])
  expect(JSON.parse(pending[0].manualObject.notes.cart)).toEqual([
    {
      _id: commodity._id,
      service: {
        _id: commodity._id,
        name: 'Commodity Insights',
        price: commodity.service.price,
        duration: commodity.service.duration,
      },
    },
  ])
  expect(
    (await json(await api.get('/api/v1/subscriptions/get-active-subscriptions'))).data.data.activeSubscriptions,
  ).toHaveLength(cart.length)

  // The session: refreshed while it lives, gone after logout.
  expect(await json(await api.post('/api/v1/users/refresh-token', { headers: xsrf }))).toEqual({ data: { number } })
  expect(await json(await api.post('/api/v1/users/logout', { headers: xsrf }))).toEqual({ message: 'Signed out.' })
  await expectJsonError(await api.get('/api/v1/users/current-user'), 401, 'Sign in first.')
  await expectJsonError(await api.post('/api/v1/users/refresh-token', { headers: xsrf }), 401, 'Sign in first.')
  await api.dispose()
})

test.describe('error answers common to every call', () => {
  test('a state-changing call without the XSRF header is refused with 403 JSON, multipart calls too', async ({
    playwright,
    baseURL,
  }) => {
    const { context: api } = await apiClient(playwright.request, baseURL!)
    await expectJsonError(
      await api.post('/api/v1/otp/request', { data: { number: '+919876543210' } }),
      403,
      /X-XSRF-TOKEN/,
    )
    await expectJsonError(
      await api.post('/api/v1/otp/request', {
        headers: { 'X-XSRF-TOKEN': 'guess' },
        data: { number: '+919876543210' },
      }),
      403,
      /X-XSRF-TOKEN/,
    )
    const multipart = await api.post('/api/v1/users/set-pancard', {
      multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } },
    })
    await expectJsonError(multipart, 403, /X-XSRF-TOKEN/)
    await api.dispose()
  })

  test('calls that need a session answer 401 JSON without one', async ({ playwright, baseURL }) => {
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
    for (const path of [
      '/api/v1/users/current-user',
      '/api/v1/payments/pending-payments',
      '/api/v1/subscriptions/get-active-subscriptions',
    ]) {
      await expectJsonError(await api.get(path), 401, 'Sign in first.')
    }
    const sessionCalls = POST_CALLS.filter((path) => !/otp\/|logout|get-specific-services/.test(path))
    expect(sessionCalls).toHaveLength(11)
    for (const path of sessionCalls)
      await expectJsonError(await api.post(path, { headers: xsrf, data: {} }), 401, 'Sign in first.')
    await api.dispose()
  })

  test('a wrong method answers 405 JSON with Allow; an unknown call 404 JSON', async ({ playwright, baseURL }) => {
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
    for (const path of GET_CALLS) {
      const response = await api.post(path, { headers: xsrf, data: {} })
      await expectJsonError(response, 405, 'Use GET for this call.')
      expect(response.headers().allow).toBe('GET')
    }
    for (const path of POST_CALLS) {
      const response = await api.get(path)
      await expectJsonError(response, 405, 'Use POST for this call.')
      expect(response.headers().allow).toBe('POST')
    }
    await expectJsonError(await api.get('/api/v1/no/such/call'), 404, 'There is no such API call.')
    await expectJsonError(await api.post('/api/v1/no/such/call', { headers: xsrf }), 404, 'There is no such API call.')
    await api.dispose()
  })

  test('a body that is not JSON answers 400, one over 64 KiB 413', async ({ playwright, baseURL }) => {
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
    const notJson = await api.post('/api/v1/otp/request', {
      headers: { ...xsrf, 'Content-Type': 'application/json' },
      data: Buffer.from('{nope'),
    })
    await expectJsonError(notJson, 400, 'The request body must be JSON.')
    const huge = { number: '+919876543210', padding: 'x'.repeat(JSON_BODY_MAX_BYTES) }
    await expectJsonError(
      await api.post('/api/v1/otp/request', { headers: xsrf, data: huge }),
      413,
      'The request body is too large: at most 64 KiB.',
    )
    await api.dispose()
  })
})

test.describe('sign-in calls', () => {
  test('otp/request: 400 for a bad number, 429 with Retry-After when asked again too soon', async ({
    playwright,
    baseURL,
  }) => {
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
    const badNumber = await expectJsonError(
      await api.post('/api/v1/otp/request', { headers: xsrf, data: { number: '12345' } }),
      400,
      'Some fields are not valid.',
    )
    expect(badNumber.errors).toEqual({ number: ['Send the mobile number with its dial code, like +919876543210.'] })

    const number = `+91${uniqueMobile()}`
    await requestCode(api, xsrf, number)
    const tooSoon = await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })
    await expectJsonError(tooSoon, 429, /^A code was just sent\. You can ask for another in \d+ seconds\.$/)
    expect(Number(tooSoon.headers()['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(tooSoon.headers()['retry-after'])).toBeLessThanOrEqual(30)
    await api.dispose()
  })

  test('otp/verify: 400 for a wrong or malformed code, 429 with Retry-After once a client has checked 10 codes in 10 minutes, while the owner elsewhere signs in', async ({
    playwright,
    baseURL,
  }) => {
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
    const number = `+91${uniqueMobile()}`
    const code = await requestCode(api, xsrf, number)
    const wrongCode = code === '000000' ? '111111' : '000000'
    const malformed = await expectJsonError(
      await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: '12ab' } }),
      400,
    )
    expect(Object.keys(malformed.errors)).toEqual(['otp'])
    await expectJsonError(
      await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: wrongCode } }),
      400,
      'That code is not right. You have 4 tries left.',
    )
    for (let attempt = 2; attempt <= 5; attempt++) {
      expect((await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: wrongCode } })).status()).toBe(
        400,
      )
    }
    // This client's tries at the code are spent (docs/sign-in.md, "Guessing codes"); the check still counts.
    await expectJsonError(
      await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: code } }),
      400,
      'Too many wrong tries for this code. Ask for a new code.',
    )
    // 10 checks of waiting codes per client per 10 minutes: 6 were made, 4 more polling the same number.
    for (let attempt = 0; attempt < 4; attempt++)
      await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: wrongCode } })
    const limited = await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: code } })
    await expectJsonError(limited, 429, /^Too many attempts from your network\. Try again in \d+ (seconds|minutes)\.$/)
    const retryAfterSeconds = Number(limited.headers()['retry-after'])
    expect(retryAfterSeconds).toBeGreaterThan(0)
    expect(retryAfterSeconds).toBeLessThanOrEqual(10 * 60)
    // The holder of the phone, from their own address, signs in with the code they got.
    const { context: owner, xsrf: ownerXsrf } = await apiClient(playwright.request, baseURL!)
    expect((await owner.post('/api/v1/otp/verify', { headers: ownerXsrf, data: { number, otp: code } })).status()).toBe(
      200,
    )
    await owner.dispose()
    await api.dispose()
  })
})

test.describe('profile calls', () => {
  test('set-details: 400 with a message per invalid field', async ({ playwright, baseURL }) => {
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!, { role: 'CUSTOMER' })
    const invalid = await api.post('/api/v1/users/set-details', {
      headers: xsrf,
      data: { name: 'A1', email: 'x@y', dob: '2020-01-01', pan: 'ABCDE1234F' },
    })
    const body = await expectJsonError(invalid, 400, 'Some fields are not valid.')
    expect(Object.keys(body.errors).sort()).toEqual(['dob', 'email', 'name', 'pan'])
    await api.dispose()
  })

  test('request-correction: filed for a complete profile; 400 invalid, 409 incomplete or one already waiting', async ({
    playwright,
    baseURL,
  }) => {
    const { context: incomplete, xsrf: incompleteXsrf } = await apiClient(playwright.request, baseURL!, {
      role: 'CUSTOMER',
    })
    await expectJsonError(
      await incomplete.post('/api/v1/users/request-correction', {
        headers: incompleteXsrf,
        data: { name: 'asha r rao', reason: 'Spelling' },
      }),
      409,
      'Your profile is not complete yet: change your details in the profile wizard.',
    )
    await incomplete.dispose()

    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!, { completeProfile: true })
    const invalid = await api.post('/api/v1/users/request-correction', {
      headers: xsrf,
      data: { pan: 'ABCDE1234F', dob: '2020-01-01', reason: '' },
    })
    const body = await expectJsonError(invalid, 400, 'Some fields are not valid.')
    expect(Object.keys(body.errors).sort()).toEqual(['dob', 'pan', 'reason'])
    const nothingNew = await expectJsonError(
      await api.post('/api/v1/users/request-correction', { headers: xsrf, data: { reason: 'Nothing new' } }),
      400,
      'Some fields are not valid.',
    )
    expect(nothingNew.errors).toEqual({ body: ['Enter at least one new value: your name, PAN or date of birth.'] })

    const filed = await api.post('/api/v1/users/request-correction', {
      headers: xsrf,
      data: { pan: uniquePan(), reason: 'Typo in my PAN' },
    })
    expect(filed.status()).toBe(200)
    expect(await json(filed)).toEqual({
      message: 'Your correction request is sent. Our team will check it and write to you.',
      data: { status: 'PENDING' },
    })
    await expectJsonError(
      await api.post('/api/v1/users/request-correction', {
        headers: xsrf,
        data: { name: 'asha r rao', reason: 'Spelling' },
      }),
      409,
      'You already have a correction request waiting for our team.',
    )
    await api.dispose()
  })

  test('set-pancard: 400 without the field, 413 over 10 MiB, 415 for what is not an image', async ({
    playwright,
    baseURL,
  }) => {
    // Step 1 done (the PAN card waits for an adult date of birth).
    const { context: api, xsrf } = await apiClient(playwright.request, baseURL!, {
      role: 'CUSTOMER',
      details: { ...PROFILE_DETAILS, pan: uniquePan() },
    })
    const pdf = { name: 'pan.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('%PDF-1.7\n%%EOF') }
    await expectJsonError(
      await api.post('/api/v1/users/set-pancard', { headers: xsrf, multipart: { pancard: pdf } }),
      415,
    )
    const big = {
      name: 'pan.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PNG_1X1, Buffer.alloc(11 * 1024 * 1024)]),
    }
    await expectJsonError(
      await api.post('/api/v1/users/set-pancard', { headers: xsrf, multipart: { pancard: big } }),
      413,
    )
    await expectJsonError(
      await api.post('/api/v1/users/set-pancard', { headers: xsrf, multipart: { other: 'x' } }),
      400,
    )
    expect((await json(await api.get('/api/v1/users/current-user'))).data.currentUser.pancard).toBeNull()
    await api.dispose()
  })
})

test('get-specific-services: the active ones among the ids, in order; 400 for a body without a list', async ({
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  const [first, second] = await availableServices(api)
  const found = await api.post('/api/v1/services/get-specific-services', {
    headers: xsrf,
    data: { services: [second!._id, 'gone', first!._id] },
  })
  expect((await json(found)).data.data).toEqual([second!.service, first!.service])
  for (const data of [{}, { services: 'all' }, { services: [1, 2] }]) {
    const refused = await expectJsonError(
      await api.post('/api/v1/services/get-specific-services', { headers: xsrf, data }),
      400,
      'Some fields are not valid.',
    )
    expect(Object.keys(refused.errors)).toEqual(['services'])
  }
  await api.dispose()
})
