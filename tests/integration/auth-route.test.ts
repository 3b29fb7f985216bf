import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { action as apiOtpRequest } from '~/routes/api.v1/otp.request'
import { action as apiOtpVerify } from '~/routes/api.v1/otp.verify'
import { OTP_CHECKS_PER_CLIENT } from '~/server/auth/one-time-codes.server'
import { action } from '~/routes/auth'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { jsonRequest, routeArgs } from '../support/route-requests'

afterAll(() => stopJobs())

const uniqueMobile = () => `9${String(randomInt(0, 1e9)).padStart(9, '0')}`

const uniqueIp = () => `10.1.${randomInt(256)}.${randomInt(256)}`

function post(
  fields: Record<string, string>,
  { cookie, clientIp = uniqueIp() }: { cookie?: string; clientIp?: string } = {},
) {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded' })
  if (cookie) headers.set('Cookie', cookie)
  const request = new Request('http://localhost/auth', { method: 'POST', headers, body: new URLSearchParams(fields) })
  return action({ request, params: {}, context: { cspNonce: '', clientIp } } as never)
}

const send = (fields: Record<string, string>) => post({ intent: 'send', ...fields })

/** The code in the queued SMS: what the customer would read. */
async function codeSentTo(phone: string): Promise<string> {
  const [job] = await prisma.$queryRaw<{ data: { code: string } }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-sms' AND data->>'to' = ${phone} ORDER BY created_on DESC LIMIT 1`
  return job!.data.code
}

describe('sending a code from /auth', () => {
  it("sends to the dial code chosen among a country's several", async () => {
    const mobile = uniqueMobile()
    const response = (await send({ country: 'XK-383', mobile })) as Response
    expect(response.status).toBe(302)
    expect(await prisma.otpChallenge.count({ where: { phone: `+383${mobile}` } })).toBe(1)
  })

  it('while a number must wait for another code, still leads to the code form, where the code sent a moment ago works', async () => {
    const mobile = uniqueMobile()
    // Someone else asked for a code for this number; its holder has the SMS and asks too.
    expect(((await send({ country: 'IN', mobile })) as Response).status).toBe(302)
    const refused = (await send({ country: 'IN', mobile })) as Response
    expect(refused.status).toBe(302)
    expect(refused.headers.get('Location')).toBe('/auth?sent=earlier')
    const pendingCookie = refused.headers.get('Set-Cookie')!.split(';')[0]!
    expect(await prisma.otpChallenge.count({ where: { phone: `+91${mobile}` } })).toBe(1)
    const verified = (await post(
      { intent: 'verify', code: await codeSentTo(`+91${mobile}`) },
      { cookie: pendingCookie },
    )) as Response
    expect(verified.status).toBe(302)
    expect(verified.headers.get('Location')).toMatch(/^\/details/)
  })

  it('refuses a country with several dial codes when none was chosen, keeping what was typed', async () => {
    const mobile = uniqueMobile()
    const result = await send({ country: 'XK', mobile })
    expect(result).toMatchObject({
      init: { status: 400 },
      data: { result: { error: { country: ['Choose your country code.'] }, initialValue: { mobile } } },
    })
  })

  it('takes a pasted number with spaces, dashes and the country code, and sends to its E.164 form', async () => {
    const mobile = uniqueMobile()
    const pasted = `+91 ${mobile.slice(0, 5)}-${mobile.slice(5)}`
    const response = (await send({ country: 'IN', mobile: pasted })) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/auth?sent=1')
    expect(await prisma.otpChallenge.count({ where: { phone: `+91${mobile}` } })).toBe(1)
  })

  it('takes the number with a leading 0 or 91', async () => {
    for (const prefix of ['0', '91']) {
      const mobile = uniqueMobile()
      expect(((await send({ country: 'IN', mobile: `${prefix}${mobile}` })) as Response).status).toBe(302)
      expect(await prisma.otpChallenge.count({ where: { phone: `+91${mobile}` } })).toBe(1)
    }
  })

  it('refuses a number of the wrong length, or with another country code, in its own words, keeping what was typed', async () => {
    for (const mobile of ['98765 4321', '+44 98765 43210', '98765 432100']) {
      expect(await send({ country: 'IN', mobile })).toMatchObject({
        init: { status: 400 },
        data: {
          result: {
            error: { mobile: ['Enter your 10-digit mobile number, like 98765 43210.'] },
            initialValue: { mobile },
          },
        },
      })
    }
  })
})

describe('asking for a code through the JSON API', () => {
  it('takes the number with spaces, dashes, dots or brackets around its digits', async () => {
    const mobile = uniqueMobile()
    const written = `(+91) ${mobile.slice(0, 5)}.${mobile.slice(5, 7)}-${mobile.slice(7)}`
    const response = await apiOtpRequest(
      routeArgs(jsonRequest('/api/v1/otp/request', { number: written }), {}, { clientIp: uniqueIp(), cspNonce: '' }),
    )
    expect(response.status).toBe(200)
    expect(await prisma.otpChallenge.count({ where: { phone: `+91${mobile}` } })).toBe(1)
  })
})

/** The Cookie header a browser would send back after these Set-Cookie headers. */
const cookiesFrom = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .join('; ')

const apiVerify = (number: string, otp: string, clientIp: string) =>
  apiOtpVerify(routeArgs(jsonRequest('/api/v1/otp/verify', { number, otp }), {}, { clientIp, cspNonce: '' }))

describe('guessing codes (docs/sign-in.md, decision 023)', () => {
  it('through the API: a client polling wrong codes gets 429 with Retry-After, and the owner still signs in with the code they got', async () => {
    const mobile = uniqueMobile()
    const number = `+91${mobile}`
    const owner = uniqueIp()
    const requested = await apiOtpRequest(
      routeArgs(jsonRequest('/api/v1/otp/request', { number }), {}, { clientIp: owner, cspNonce: '' }),
    )
    expect(requested.status).toBe(200)
    const noisy = uniqueIp()
    const statuses: number[] = []
    let refused: Response | undefined
    for (let i = 0; i <= OTP_CHECKS_PER_CLIENT; i++) {
      const response = await apiVerify(number, '999999', noisy)
      statuses.push(response.status)
      refused = response
    }
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true)
    expect(refused!.status).toBe(429)
    expect(Number(refused!.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await refused!.json()).toEqual({ message: expect.stringMatching(/^Too many attempts from your network/) })
    // Meanwhile many other addresses guess too.
    await Promise.all(Array.from({ length: 10 }, () => apiVerify(number, '999999', uniqueIp())))
    const signedIn = await apiVerify(number, await codeSentTo(number), owner)
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('Set-Cookie')).toMatch(/session=/)
  })

  it('on the page: a noisy browser reads when to try again (429, Retry-After), and a customer behind the same address signs in', async () => {
    const carrierAddress = uniqueIp()
    const noisySent = (await post(
      { intent: 'send', country: 'IN', mobile: uniqueMobile() },
      { clientIp: carrierAddress },
    )) as Response
    const noisyCookies = cookiesFrom(noisySent)
    expect(noisyCookies).toMatch(/sign-in-device=/)
    let answer: unknown
    for (let i = 0; i <= OTP_CHECKS_PER_CLIENT; i++)
      answer = await post({ intent: 'verify', code: '999999' }, { cookie: noisyCookies, clientIp: carrierAddress })
    expect(answer).toMatchObject({
      init: { status: 429, headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } },
      data: { formError: expect.stringMatching(/^Too many attempts from this browser\. Try again in \d+ minutes\.$/) },
    })
    const mobile = uniqueMobile()
    const ownerSent = (await post({ intent: 'send', country: 'IN', mobile }, { clientIp: carrierAddress })) as Response
    const verified = (await post(
      { intent: 'verify', code: await codeSentTo(`+91${mobile}`) },
      { cookie: cookiesFrom(ownerSent), clientIp: carrierAddress },
    )) as Response
    expect(verified.status).toBe(302)
    expect(verified.headers.get('Location')).toMatch(/^\/details/)
  })
})
