import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { action } from '~/routes/auth'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs.server'

afterAll(() => stopJobs())

const uniqueMobile = () => `9${String(randomInt(0, 1e9)).padStart(9, '0')}`

function send(fields: Record<string, string>) {
  const request = new Request('http://localhost/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'send', ...fields }),
  })
  return action({ request, params: {}, context: { cspNonce: '', clientIp: `10.1.${randomInt(256)}.${randomInt(256)}` } } as never)
}

describe('sending a code from /auth', () => {
  it("sends to the dial code chosen among a country's several", async () => {
    const mobile = uniqueMobile()
    const response = (await send({ country: 'XK-383', mobile })) as Response
    expect(response.status).toBe(302)
    expect(await prisma.otpChallenge.count({ where: { phone: `+383${mobile}` } })).toBe(1)
  })

  it('refuses a country with several dial codes when none was chosen, keeping what was typed', async () => {
    const mobile = uniqueMobile()
    const result = await send({ country: 'XK', mobile })
    expect(result).toMatchObject({ init: { status: 400 }, data: { fieldErrors: { country: ['Choose your country code.'] }, fields: { mobile } } })
  })
})
