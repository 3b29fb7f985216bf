import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { sendEmail } from '~/server/messaging/delivery.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { MailDeliveryError, SMTP_POOL_CONNECTIONS, smtpMail, type MailProvider } from '~/server/messaging/mail.server'
import { notifyPaymentConfirmed } from '~/server/messaging/customer-notices.server'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { queuedEmails } from '../support/queued-emails'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

type Received = { from: string; to: string[]; message: string }

const received: Received[] = []
/** Connections the fake server has accepted. */
let connections = 0
/** Recipients the fake server refuses for good, as a real one does an unknown mailbox. */
const UNKNOWN_MAILBOX = 'nobody@example.in'
let server: SMTPServer
let port: number

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onConnect(_session, callback) {
      connections++
      callback()
    },
    onRcptTo(address, _session, callback) {
      if (address.address === UNKNOWN_MAILBOX)
        return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          message: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.server.address() as AddressInfo).port
})

/** Each test's provider keeps its connections: closed before the server, which would wait 30 s for them. */
const opened: MailProvider[] = []
const smtpTo = (options: Parameters<typeof smtpMail>[0]) => {
  const mail = smtpMail(options)
  opened.push(mail)
  return mail
}

afterAll(async () => {
  for (const mail of opened) mail.close?.()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await stopJobs()
})

describe('SMTP mail (nodemailer)', () => {
  it('sends from MAIL_FROM to the customer with the subject and the text', async () => {
    const mail = smtpTo({ url: `smtp://127.0.0.1:${port}`, from: 'Research Store <store@example.in>' })
    await mail.send({
      to: 'asha@example.in',
      template: 'test',
      subject: 'Your payment is confirmed',
      body: 'Hello asha,\nEquity: ends on 01-01-2027',
    })

    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ from: 'store@example.in', to: ['asha@example.in'] })
    expect(received[0]!.message).toContain('Subject: Your payment is confirmed')
    expect(received[0]!.message).toContain('Equity: ends on 01-01-2027')
  })

  it('sends the HTML part beside the plain text when there is one, replies going to support', async () => {
    const mail = smtpTo({ url: `smtp://127.0.0.1:${port}`, from: 'store@example.in' })
    await mail.send({
      to: 'ravi@example.in',
      template: 'test',
      subject: 'Your payment is confirmed',
      body: 'Hello Ravi,',
      html: '<!DOCTYPE html><html><body><p>Hello Ravi,</p></body></html>',
      replyTo: 'help@example.in',
    })
    const message = received.at(-1)!.message
    expect(message).toContain('Content-Type: multipart/alternative')
    expect(message).toContain('Content-Type: text/plain')
    expect(message).toContain('Content-Type: text/html')
    expect(message).toContain('<p>Hello Ravi,</p>')
    expect(message).toContain('Reply-To: help@example.in')
  })

  it(`sends many messages at once on at most ${SMTP_POOL_CONNECTIONS} kept connections`, async () => {
    const mail = smtpTo({ url: `smtp://127.0.0.1:${port}`, from: 'store@example.in' })
    const before = { connections, received: received.length }
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        mail.send({ to: `reader-${index}@example.in`, template: 'test', subject: `Research ${index}`, body: 'Hi' }),
      ),
    )
    expect(new Set(ids).size).toBe(40)
    expect(received.length - before.received).toBe(40)
    expect(connections - before.connections).toBeGreaterThan(0)
    expect(connections - before.connections).toBeLessThanOrEqual(SMTP_POOL_CONNECTIONS)
    // The next message goes on a kept connection.
    await mail.send({ to: 'later@example.in', template: 'test', subject: 'Later', body: 'Hi' })
    expect(connections - before.connections).toBeLessThanOrEqual(SMTP_POOL_CONNECTIONS)
  })

  it('a 5xx refusal is final (the job drops it); a server that cannot be reached is retried', async () => {
    const mail = smtpTo({ url: `smtp://127.0.0.1:${port}`, from: 'store@example.in' })
    const refused = await mail
      .send({ to: UNKNOWN_MAILBOX, template: 'test', subject: 'Hi', body: 'Hi' })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MailDeliveryError)
    expect(refused).toMatchObject({ retryable: false, message: expect.stringContaining('550') })

    const closed = smtpTo({ url: 'smtp://127.0.0.1:1', from: 'store@example.in', timeoutMs: 2_000 })
    const unreachable = await closed
      .send({ to: 'asha@example.in', template: 'test', subject: 'Hi', body: 'Hi' })
      .catch((error: unknown) => error)
    expect(unreachable).toMatchObject({ retryable: true })
  })

  it('the send-email job drops a permanent refusal and throws (so pg-boss retries) on anything else', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const deliver = vi.spyOn(await import('~/server/messaging/mail.server'), 'deliverEmail')
    deliver.mockRejectedValueOnce(new MailDeliveryError('550 no such mailbox', false))
    await expect(
      sendEmail({ to: 'a@example.in', template: 'test', subject: 'Hi', body: 'Hi' }),
    ).resolves.toBeUndefined()
    deliver.mockRejectedValueOnce(new MailDeliveryError('connection refused', true))
    await expect(sendEmail({ to: 'a@example.in', template: 'test', subject: 'Hi', body: 'Hi' })).rejects.toThrow(
      'connection refused',
    )
    deliver.mockRestore()
  })
})

describe('the payment confirmation e-mail', () => {
  it('is queued once when any path pays, naming each service and its end date in India time', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const userId = await createUser()
    const email = `asha-${userId.slice(0, 8)}@example.in`
    await prisma.user.update({ where: { id: userId }, data: { name: 'asha rao', email } })
    const service = await createService('Equity', 299_900, 30)
    const payment = await createPaymentRow(userId, [cartItemOf(service)])
    const paidAt = new Date('2026-03-31T20:00:00Z') // 1 April in India

    await Promise.all([
      markPaymentPaid(payment.id, { gatewayPaymentId: 'pay_one', paidAt, source: 'webhook' }),
      markPaymentPaid(payment.id, { gatewayPaymentId: 'pay_one', paidAt, source: 'checkout' }),
    ])

    const queued = await queuedEmails(email)
    expect(queued).toEqual([
      expect.objectContaining({
        to: email,
        template: 'payment-confirmed',
        subject: 'Your payment is confirmed',
        html: expect.any(String),
      }),
    ])
    expect(queued[0]!.body).toContain(
      `Hello Asha Rao,\n\nWe received your payment of Rs. 2,999. Your subscriptions:\n\n- ${service.name}: ends on 01-05-2026\n`,
    )
    expect(queued[0]!.html).toContain('Hello Asha Rao,')
    expect(await notifyPaymentConfirmed('00000000-0000-4000-8000-000000000000')).toBe(false)
  })
})
