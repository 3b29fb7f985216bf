import { prisma } from './db.server'

export type RateLimitRule = {
  /** What is counted, e.g. "otp-send-phone". */
  bucket: string
  /** Whose actions, e.g. the phone number or the client IP. */
  key: string
  limit: number
  windowMs: number
}

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterMs: number; rule: RateLimitRule }

/**
 * Sliding-window limits kept in Postgres, so they hold across app instances. Either every rule has
 * room and one event is recorded for each, or nothing is recorded and the longest wait is returned.
 */
export async function consumeRateLimits(rules: RateLimitRule[], now = new Date()): Promise<RateLimitResult> {
  return prisma.$transaction(async (tx) => {
    // Serialise concurrent requests for the same keys (sorted to avoid lock-order deadlocks).
    const lockKeys = [...new Set(rules.map((rule) => `${rule.bucket}:${rule.key}`))].sort()
    for (const lockKey of lockKeys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`

    let refusal: RateLimitResult = { allowed: true }
    for (const rule of rules) {
      const windowStart = new Date(now.getTime() - rule.windowMs)
      const recent = await tx.rateLimitEvent.findMany({
        where: { bucket: rule.bucket, key: rule.key, createdAt: { gt: windowStart } },
        orderBy: { createdAt: 'desc' },
        take: rule.limit,
        select: { createdAt: true },
      })
      if (recent.length < rule.limit) continue
      // Room comes back when the oldest of the last `limit` events leaves the window.
      const retryAfterMs = recent[recent.length - 1]!.createdAt.getTime() + rule.windowMs - now.getTime()
      if (refusal.allowed || retryAfterMs > refusal.retryAfterMs) refusal = { allowed: false, retryAfterMs, rule }
    }
    if (refusal.allowed) {
      await tx.rateLimitEvent.createMany({ data: rules.map((rule) => ({ bucket: rule.bucket, key: rule.key, createdAt: now })) })
    }
    return refusal
  })
}

/** "30 seconds", "12 minutes", "1 hour": how long to wait, in words. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000))
  if (seconds < 90) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 90) return `${minutes} minutes`
  const hours = Math.ceil(minutes / 60)
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`
}
