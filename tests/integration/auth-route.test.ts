import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { action } from '~/routes/auth'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/queue.server'

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
})
