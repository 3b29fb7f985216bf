import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { msg91Sms, researchSmsEnabled } from '~/server/messaging/sms.server'

// Research notices by SMS go by their own DLT template (docs/research.md, "Channels").
const bodies: string[] = []
let baseUrl: string
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    bodies.push(body)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"type":"success","message":"3763646c3058373530393531"}')
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('research notices with MSG91', () => {
  const notice = {
    to: '+919876543210',
    text: 'Acme: new research "Steel". Read it: /research/x',
    template: 'research' as const,
  }

  it('are refused (final) without MSG91_RESEARCH_TEMPLATE_ID, never sent by another template', async () => {
    await expect(
      msg91Sms({ authKey: 'k', templateId: 't', noticeTemplateId: 'n', baseUrl }).sendNotice(notice),
    ).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('MSG91_RESEARCH_TEMPLATE_ID') })
    expect(bodies).toHaveLength(0)
  })

  it('go by their own template with the text as its variable, answering MSG91’s request id', async () => {
    const id = await msg91Sms({ authKey: 'k', templateId: 't', researchTemplateId: 'res-1', baseUrl }).sendNotice(
      notice,
    )
    expect(id).toBe('3763646c3058373530393531')
    expect(JSON.parse(bodies.at(-1)!)).toEqual({
      template_id: 'res-1',
      short_url: '0',
      recipients: [{ mobiles: '919876543210', text: notice.text }],
    })
  })

  it('are queued only with the template, or through the dev outbox', () => {
    const configured = { MSG91_AUTH_KEY: 'auth-key-1', MSG91_TEMPLATE_ID: 'tmpl', MSG91_BASE_URL: baseUrl }
    expect(researchSmsEnabled(configured)).toBe(false)
    expect(researchSmsEnabled({ ...configured, MSG91_RESEARCH_TEMPLATE_ID: 'res-1' })).toBe(true)
    expect(researchSmsEnabled({ MSG91_BASE_URL: baseUrl })).toBe(true)
  })
})
