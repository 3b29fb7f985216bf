import { expect, test } from '@playwright/test'
import { apiClient, json, PNG_1X1 } from './api-client'
import { latestCode, uniqueMobile } from './sign-in-helpers'

test('the whole customer journey through the API, as the existing client drives it', async ({ playwright, baseURL }) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  const number = `+91${uniqueMobile()}`

  const services = await json(await api.get('/api/v1/services/get-available-services'))
  expect(services.data.data.length).toBeGreaterThanOrEqual(4)
  const premium = services.data.data.find((entry: { service: { name: string } }) => entry.service.name === 'Equity Premium')
  expect(premium).toEqual({
    _id: premium._id,
    service: { _id: premium._id, name: 'Equity Premium', description: expect.any(Array), price: 2999, duration: 30 },
  })
  const specific = await json(await api.post('/api/v1/services/get-specific-services', { headers: xsrf, data: { services: [premium._id, 'gone'] } }))
  expect(specific.data.data).toEqual([premium.service])

  expect((await api.post('/api/v1/users/refresh-token', { headers: xsrf })).status()).toBe(401)
  expect((await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })).status()).toBe(200)
  const tooSoon = await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })
  expect(tooSoon.status()).toBe(429)
  expect(Number(tooSoon.headers()['retry-after'])).toBeGreaterThan(0)
  expect((await json(tooSoon)).message).toMatch(/^A code was just sent/)

  const code = await latestCode(api, number)
  const wrong = await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: code === '000000' ? '111111' : '000000' } })
  expect(wrong.status()).toBe(400)
  expect((await json(wrong)).message).toBe('That code is not right. You have 4 tries left.')
  const verified = await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp: code } })
  expect(verified.status()).toBe(200)
  expect((await json(await api.post('/api/v1/users/refresh-token', { headers: xsrf }))).data.number).toBe(number)

  const fresh = await json(await api.get('/api/v1/users/current-user'))
  expect(fresh.data.currentUser).toEqual({ name: null, email: null, dob: null, pan: null, pancard: null, agreement: false })

  const invalid = await api.post('/api/v1/users/set-details', { headers: xsrf, data: { name: 'A1', email: 'x@y', dob: '2020-01-01', pan: 'ABCDE1234F' } })
  expect(invalid.status()).toBe(400)
  expect(Object.keys((await json(invalid)).errors).sort()).toEqual(['dob', 'email', 'name', 'pan'])
  const details = { name: 'Asha Rao', email: 'Asha@Example.in', dob: '2001-05-17', pan: 'abcpe1234f' }
  expect((await api.post('/api/v1/users/set-details', { headers: xsrf, data: details })).status()).toBe(200)

  const pdf = await api.post('/api/v1/users/set-pancard', {
    headers: xsrf,
    multipart: { pancard: { name: 'pan.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('%PDF-1.7\n%%EOF') } },
  })
  expect(pdf.status()).toBe(415)
  const big = await api.post('/api/v1/users/set-pancard', {
    headers: xsrf,
    multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: Buffer.concat([PNG_1X1, Buffer.alloc(11 * 1024 * 1024)]) } },
  })
  expect(big.status()).toBe(413)
  const missing = await api.post('/api/v1/users/set-pancard', { headers: xsrf, multipart: { other: 'x' } })
  expect(missing.status()).toBe(400)
  const card = await api.post('/api/v1/users/set-pancard', {
    headers: xsrf,
    multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  })
  expect((await json(card)).data.pancard).toBe('/details/pan-card')

  const agreement = await json(await api.get('/api/v1/agreement'))
  expect(agreement.data.version).toMatch(/^agreement-[0-9a-f]{12}$/)
  expect((await api.post('/api/v1/users/set-agreement', { headers: xsrf })).status()).toBe(200)

  const complete = await json(await api.get('/api/v1/users/current-user'))
  expect(complete.data.currentUser).toEqual({
    name: 'asha rao',
    email: 'asha@example.in',
    dob: '2001-05-17',
    pan: 'ABCPE1234F',
    pancard: '/details/pan-card',
    agreement: true,
  })

  expect((await api.post('/api/v1/users/logout', { headers: xsrf })).status()).toBe(200)
  const afterLogout = await api.get('/api/v1/users/current-user')
  expect(afterLogout.status()).toBe(401)
  expect((await json(afterLogout)).message).toBe('Sign in first.')
  await api.dispose()
})

test('a state-changing call without the XSRF header is refused with JSON', async ({ playwright, baseURL }) => {
  const { context: api } = await apiClient(playwright.request, baseURL!)
  const response = await api.post('/api/v1/otp/request', { data: { number: '+919876543210' } })
  expect(response.status()).toBe(403)
  expect((await json(response)).message).toMatch(/X-XSRF-TOKEN/)
  const forged = await api.post('/api/v1/otp/request', { headers: { 'X-XSRF-TOKEN': 'guess' }, data: { number: '+919876543210' } })
  expect(forged.status()).toBe(403)
  await api.dispose()
})

test('bad bodies, unknown calls and wrong methods answer JSON errors', async ({ playwright, baseURL }) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  const notJson = await api.post('/api/v1/otp/request', { headers: { ...xsrf, 'Content-Type': 'application/json' }, data: Buffer.from('{nope') })
  expect(notJson.status()).toBe(400)
  expect((await json(notJson)).message).toBe('The request body must be JSON.')
  const badNumber = await api.post('/api/v1/otp/request', { headers: xsrf, data: { number: '12345' } })
  expect(badNumber.status()).toBe(400)
  expect((await json(badNumber)).errors.number).toEqual(['Send the mobile number with its dial code, like +919876543210.'])
  const unknown = await api.get('/api/v1/no/such/call')
  expect(unknown.status()).toBe(404)
  expect((await json(unknown)).message).toBe('There is no such API call.')
  const wrongMethod = await api.get('/api/v1/otp/request')
  expect(wrongMethod.status()).toBe(405)
  expect(wrongMethod.headers().allow).toBe('POST')
  expect((await api.post('/api/v1/users/set-details', { headers: xsrf, data: {} })).status()).toBe(401)
  await api.dispose()
})
