import { describe, expect, it } from 'vitest'
import { recordOutboxMessage } from '~/server/messaging/outbox.server'
import { loader } from '~/demo/outbox.json'

const load = (url: string) => loader({ request: new Request(url), params: {}, context: {} } as never)

describe('/dev/outbox.json in demo mode', () => {
  it('refuses to list every message: "to" is required (400, JSON message)', async () => {
    await recordOutboxMessage({ channel: 'sms', recipient: '+919000000000', body: 'Your code is 123456' })
    for (const url of ['http://localhost/dev/outbox.json', 'http://localhost/dev/outbox.json?to=']) {
      const response = await load(url)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        message: 'Query parameter "to" is required: the phone number (+919876543210) or e-mail whose messages to list',
      })
    }
  })

  it("lists one recipient's messages only", async () => {
    await recordOutboxMessage({ channel: 'sms', recipient: '+919876543210', body: 'Your code is 654321' })
    await recordOutboxMessage({ channel: 'sms', recipient: '+919876543211', body: 'Your code is 111111' })
    const response = await load('http://localhost/dev/outbox.json?to=%2B919876543210')
    expect(response.status).toBe(200)
    const { messages } = (await response.json()) as { messages: { recipient: string; body: string }[] }
    expect(messages.map(({ recipient, body }) => ({ recipient, body }))).toEqual([
      { recipient: '+919876543210', body: 'Your code is 654321' },
    ])
  })
})
