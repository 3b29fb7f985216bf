import { randomInt } from 'node:crypto'
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import { latestCode, uniqueMobile } from './sign-in-helpers'

export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64')

/** An API client as the SPEC's existing one behaves: cookies kept, the XSRF cookie echoed in a header. */
export async function apiClient(playwright: typeof import('@playwright/test')['request'], baseURL: string) {
  const context = await playwright.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  })
  await context.get('/api/v1/services/get-available-services')
  const token = (await context.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value
  expect(token, 'the API sets an XSRF-TOKEN cookie').toBeTruthy()
  return { context, xsrf: { 'X-XSRF-TOKEN': token! } }
}

export async function json(response: APIResponse): Promise<any> {
  expect(response.headers()['content-type']).toMatch(/^application\/json/)
  return response.json()
}

/** Signs in a new number through the OTP calls; returns the number. */
export async function signInThroughApi(api: APIRequestContext, xsrf: Record<string, string>): Promise<string> {
  const number = `+91${uniqueMobile()}`
  expect((await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })).status()).toBe(200)
  const otp = await latestCode(api, number)
  expect((await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp } })).status()).toBe(200)
  return number
}

/** The wizard's three steps through the API: details, PAN card, agreement. */
export async function completeProfileThroughApi(api: APIRequestContext, xsrf: Record<string, string>): Promise<void> {
  const details = { name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCPE1234F' }
  expect((await api.post('/api/v1/users/set-details', { headers: xsrf, data: details })).status()).toBe(200)
  const card = await api.post('/api/v1/users/set-pancard', { headers: xsrf, multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } } })
  expect(card.status()).toBe(200)
  expect((await api.post('/api/v1/users/set-agreement', { headers: xsrf })).status()).toBe(200)
}
