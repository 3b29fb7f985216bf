import { prisma } from './db.server'

type RuleTarget = {
  /** What is counted, e.g. "otp-send-phone". */
  bucket: string
  /** Whose actions, e.g. the phone number or the client IP. */
  key: string
  windowMs: number
}

/** At most `limit` events in any `windowMs`. */
export type WindowRule = RuleTarget & { limit: number }

/** A growing delay instead of a ceiling: the next event may come `waitMs(events in the last windowMs)` after the latest. */
export type BackoffRule = RuleTarget & { waitMs: (eventsInWindow: number) => number }

export type RateLimitRule = WindowRule | BackoffRule

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterMs: number; rule: RateLimitRule }

type EventReader = Pick<typeof prisma, 'rateLimitEvent'>

/** Milliseconds until `rule` has room for another event (0 when it has room now). */
async function waitForRoom(db: EventReader, rule: RateLimitRule, now: Date): Promise<number> {
  const where = { bucket: rule.bucket, key: rule.key, createdAt: { gt: new Date(now.getTime() - rule.windowMs) } }
  if ('waitMs' in rule) {
    const recent = await db.rateLimitEvent.aggregate({ where, _count: true, _max: { createdAt: true } })
    const latest = recent._max.createdAt
    return latest ? Math.max(0, latest.getTime() + rule.waitMs(recent._count) - now.getTime()) : 0
  }
  const recent = await db.rateLimitEvent.findMany({
    where,
    orderBy: { createdAt: 'desc' },
    take: rule.limit,
    select: { createdAt: true },
  })
  if (recent.length < rule.limit) return 0
  // Room comes back when the oldest of the last `limit` events leaves the window.
  return recent[recent.length - 1]!.createdAt.getTime() + rule.windowMs - now.getTime()
}

/**
 * Limits kept in Postgres, so they hold across app instances. Either every rule has room and one
 * event is recorded for each, or nothing is recorded and the longest wait is returned.
 */
export async function consumeRateLimits(rules: RateLimitRule[], now = new Date()): Promise<RateLimitResult> {
  return prisma.$transaction(async (tx) => {
    // Serialise concurrent requests for the same keys (sorted to avoid lock-order deadlocks).
    const lockKeys = [...new Set(rules.map((rule) => `${rule.bucket}:${rule.key}`))].sort()
    for (const lockKey of lockKeys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`

    let refusal: RateLimitResult = { allowed: true }
    for (const rule of rules) {
      const retryAfterMs = await waitForRoom(tx, rule, now)
      if (retryAfterMs > 0 && (refusal.allowed || retryAfterMs > refusal.retryAfterMs))
        refusal = { allowed: false, retryAfterMs, rule }
    }
    if (refusal.allowed) {
      await tx.rateLimitEvent.createMany({
        data: rules.map((rule) => ({ bucket: rule.bucket, key: rule.key, createdAt: now })),
      })
    }
    return refusal
  })
}

/** Milliseconds until `rule` has room, without recording anything (for a countdown on the page). */
export const rateLimitWaitMs = (rule: RateLimitRule, now = new Date()): Promise<number> =>
  waitForRoom(prisma, rule, now)

/** "30 seconds", "12 minutes", "1 hour": how long to wait, in words. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000))
  if (seconds < 90) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 90) return `${minutes} minutes`
  const hours = Math.ceil(minutes / 60)
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`
}
