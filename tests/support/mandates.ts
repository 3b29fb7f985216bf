import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { prisma } from '~/server/db.server'
import type { WebhookDelivery } from '~/server/payments/gateway/sandbox.server'
import { autoRenewOffer, consentSha256, turnOnAutoRenew } from '~/server/payments/mandates.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { createService, createUser } from './payment-fixtures'

// Automatic renewal in integration tests: a customer with a running period, a mandate turned on
// with its consent and authorised at the sandbox gateway, and the gateway's webhooks delivered.

export const gateway = sandboxGateway()
export const DAY = 86_400_000
const origin = { ip: '203.0.113.9', userAgent: 'vitest', channel: 'PAGE' as const }

/** A KYC-validated customer with an e-mail, holding a period of a 30-day service that ends `endsInDays` from now. */
export async function customerWithPeriod({
  endsInDays = 20,
  pricePaise = 300_000,
  service: existing,
}: { endsInDays?: number; pricePaise?: number; service?: Awaited<ReturnType<typeof createService>> } = {}) {
  const userId = await createUser()
  const email = `autopay-${userId.slice(0, 8)}@example.in`
  await prisma.user.update({ where: { id: userId }, data: { email } })
  const service = existing ?? (await createService('Equity', pricePaise, 30))
  const now = Date.now()
  await prisma.subscription.create({
    data: {
      userId,
      serviceId: service.id,
      startsAt: new Date(now - 10 * DAY),
      endsAt: new Date(now + endsInDays * DAY),
      grantReason: 'test period',
      grantedById: userId,
    },
  })
  return { userId, email, service }
}

export async function turnOn(userId: string, serviceId: string) {
  const offer = await autoRenewOffer(prisma, userId, serviceId, new Date())
  return turnOnAutoRenew(
    userId,
    serviceId,
    { shownSha256: consentSha256(offer.consentText), origin },
    new Date(),
    gateway,
  )
}

export const deliver = (delivery: WebhookDelivery) => handleWebhook(delivery.rawBody, delivery.signature, { gateway })

/** A mandate turned on and authorised at the gateway (ACTIVE). */
export async function authorised(userId: string, serviceId: string) {
  const started = await turnOn(userId, serviceId)
  for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'authorise')) await deliver(delivery)
  return started
}

export const eventOf = (deliveries: WebhookDelivery[], event: WebhookDelivery['event']) =>
  deliveries.find((delivery) => delivery.event === event)!
