import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliverOtpSms } from '~/server/messaging/delivery.server'
import { msg91Sms, renewalSmsEnabled, SmsDeliveryError, smsProvider } from '~/server/messaging/sms.server'

type Received = { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }
const received: Received[] = []
let answer = { status: 200, body: '{"type":"success","message":"3763646c3058373530393530"}' }
let baseUrl: string
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    received.push({ method: req.method, url: req.url, headers: req.headers, body })
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const sms = { to: '+919876543210', code: '482913', text: '482913 is your Research Store sign-in code.' }

describe('MSG91 provider, against a local fake of its API', () => {
  it("sends the code to MSG91's flow API with the DLT template and the number without +", async () => {
    answer = { status: 200, body: '{"type":"success","message":"ok"}' }
    await msg91Sms({ authKey: 'auth-key-1', templateId: 'tmpl-1207', baseUrl }).sendOtp(sms)
    const request = received.at(-1)!
    expect(request.method).toBe('POST')
    expect(request.url).toBe('/api/v5/flow')
    expect(request.headers.authkey).toBe('auth-key-1')
    expect(request.headers['content-type']).toBe('application/json')
    expect(JSON.parse(request.body)).toEqual({
      template_id: 'tmpl-1207',
      short_url: '0',
      recipients: [{ mobiles: '919876543210', otp: '482913' }],
    })
  })

  it('reports a 5xx as retryable and a 4xx or an error body as final', async () => {
    const provider = msg91Sms({ authKey: 'k', templateId: 't', baseUrl })
    answer = { status: 503, body: 'busy' }
    await expect(provider.sendOtp(sms)).rejects.toMatchObject({ name: 'SmsDeliveryError', retryable: true })
    answer = { status: 401, body: '{"type":"error","message":"Authentication failure"}' }
    await expect(provider.sendOtp(sms)).rejects.toMatchObject({ retryable: false })
    answer = { status: 200, body: '{"type":"error","message":"Invalid template"}' }
    await expect(provider.sendOtp(sms)).rejects.toBeInstanceOf(SmsDeliveryError)
  })

  it('reports an unreachable provider as retryable', async () => {
    await expect(
      msg91Sms({ authKey: 'k', templateId: 't', baseUrl: 'http://127.0.0.1:1' }).sendOtp(sms),
    ).rejects.toMatchObject({
      retryable: true,
    })
  })
})

describe('choosing the SMS provider', () => {
  it('is MSG91 when its auth key and template are configured, else the dev outbox', () => {
    expect(
      smsProvider({
        MSG91_AUTH_KEY: 'auth-key-1',
        MSG91_TEMPLATE_ID: 'tmpl-1207',
        MSG91_BASE_URL: 'https://control.msg91.com',
      }).name,
    ).toBe('MSG91')
    expect(
      smsProvider({
        MSG91_AUTH_KEY: 'auth-key-1',
        MSG91_TEMPLATE_ID: undefined,
        MSG91_BASE_URL: 'https://control.msg91.com',
      }).name,
    ).toBe('dev outbox')
    expect(
      smsProvider({
        MSG91_AUTH_KEY: undefined,
        MSG91_TEMPLATE_ID: undefined,
        MSG91_BASE_URL: 'https://control.msg91.com',
      }).name,
    ).toBe('dev outbox')
  })

  it("sends through the configured MSG91's address", async () => {
    answer = { status: 200, body: '{"type":"success","message":"ok"}' }
    const before = received.length
    await smsProvider({ MSG91_AUTH_KEY: 'auth-key-2', MSG91_TEMPLATE_ID: 'tmpl-2', MSG91_BASE_URL: baseUrl }).sendOtp(
      sms,
    )
    expect(received).toHaveLength(before + 1)
    expect(received.at(-1)!.headers.authkey).toBe('auth-key-2')
  })
})

describe('renewal reminders by SMS', () => {
  const configured = { MSG91_AUTH_KEY: 'auth-key-1', MSG91_TEMPLATE_ID: 'tmpl-1207', MSG91_BASE_URL: baseUrl }

  it('go by their own DLT template, the text as its variable; refused (final) without one', async () => {
    answer = { status: 200, body: '{"type":"success","message":"ok"}' }
    const reminder = { to: '+919876543210', text: 'Renew: /renew/x', template: 'renewal-reminder' as const }
    await msg91Sms({
      authKey: 'k',
      templateId: 't',
      noticeTemplateId: 'n',
      renewalTemplateId: 'r-7',
      baseUrl,
    }).sendNotice(reminder)
    expect(JSON.parse(received.at(-1)!.body)).toEqual({
      template_id: 'r-7',
      short_url: '0',
      recipients: [{ mobiles: '919876543210', text: 'Renew: /renew/x' }],
    })
    await expect(
      msg91Sms({ authKey: 'k', templateId: 't', noticeTemplateId: 'n', baseUrl }).sendNotice(reminder),
    ).rejects.toMatchObject({ retryable: false })
  })

  it('are sent with MSG91 only when MSG91_RENEWAL_TEMPLATE_ID is set; always to the dev outbox', () => {
    expect(renewalSmsEnabled({ ...configured, MSG91_BASE_URL: 'https://control.msg91.com' })).toBe(false)
    expect(
      renewalSmsEnabled({ ...configured, MSG91_BASE_URL: 'https://control.msg91.com', MSG91_RENEWAL_TEMPLATE_ID: 'r' }),
    ).toBe(true)
    expect(
      renewalSmsEnabled({ MSG91_AUTH_KEY: undefined, MSG91_TEMPLATE_ID: undefined, MSG91_BASE_URL: 'https://x.in' }),
    ).toBe(true)
  })
})

describe('the SMS job with MSG91', () => {
  const provider = () => msg91Sms({ authKey: 'k', templateId: 't', baseUrl })

  it('throws on a 5xx or 429, so pg-boss tries again', async () => {
    answer = { status: 503, body: 'busy' }
    await expect(deliverOtpSms(sms, provider())).rejects.toMatchObject({ retryable: true })
    answer = { status: 429, body: 'slow down' }
    await expect(deliverOtpSms(sms, provider())).rejects.toMatchObject({ retryable: true })
  })

  it('drops a 4xx refusal without throwing: a retry would be refused the same way', async () => {
    answer = { status: 400, body: '{"type":"error","message":"Invalid mobile"}' }
    await expect(deliverOtpSms(sms, provider())).resolves.toBeUndefined()
  })
})
