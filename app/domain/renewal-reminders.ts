import { indiaIsoDate, indiaMidnight, MS_PER_DAY } from './dates'

// When a customer is reminded that a subscription ends (docs/payments.md, "Renewals"): three stages,
// each an instant before or at the end; a row records the latest stage sent (subscriptions.reminder_stage).

export const REMINDER_STAGES = {
  /** 7 days before the end. */
  WEEK_BEFORE: 1,
  /** 1 day before the end. */
  DAY_BEFORE: 2,
  /** At the end. */
  ENDED: 3,
} as const
export type ReminderStage = (typeof REMINDER_STAGES)[keyof typeof REMINDER_STAGES]

/** How long before the end each stage is due (0: at the end). */
export const REMINDER_STAGE_BEFORE_END_MS: Record<ReminderStage, number> = {
  1: 7 * MS_PER_DAY,
  2: 1 * MS_PER_DAY,
  3: 0,
}

/** The end's reminder goes no later than this after the end (a job stopped for longer sends none: stale news). */
export const REMINDER_AFTER_END_LIMIT_MS = MS_PER_DAY

/**
 * The latest stage due at `now` for a period from `startsAt` to `endsAt`, or null when none is: too
 * early, too long after the end, or a stage whose moment lies before the period began (a period of
 * 5 days gets no "7 days before"). Passing several stages at once gives the latest only.
 */
export function dueReminderStage(startsAt: Date, endsAt: Date, now: Date): ReminderStage | null {
  if (now.getTime() >= endsAt.getTime() + REMINDER_AFTER_END_LIMIT_MS) return null
  const stages = [REMINDER_STAGES.ENDED, REMINDER_STAGES.DAY_BEFORE, REMINDER_STAGES.WEEK_BEFORE] as const
  for (const stage of stages) {
    const dueAt = endsAt.getTime() - REMINDER_STAGE_BEFORE_END_MS[stage]
    if (now.getTime() >= dueAt) return dueAt >= startsAt.getTime() ? stage : null
  }
  return null
}

/** No reminder SMS from 21:00 to 09:00 India time (the e-mail goes at once; the SMS waits for 09:00). */
export const SMS_QUIET_FROM_HOUR_IST = 21
export const SMS_QUIET_UNTIL_HOUR_IST = 9
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000

/** When an SMS due at `now` may go: null at once, else the 09:00 India time that ends the quiet hours. */
export function smsQuietUntil(now: Date): Date | null {
  const hour = new Date(now.getTime() + IST_OFFSET_MS).getUTCHours()
  if (hour >= SMS_QUIET_UNTIL_HOUR_IST && hour < SMS_QUIET_FROM_HOUR_IST) return null
  const today = indiaMidnight(indiaIsoDate(now))
  const morning = new Date(today.getTime() + SMS_QUIET_UNTIL_HOUR_IST * 3_600_000)
  return hour >= SMS_QUIET_FROM_HOUR_IST ? new Date(morning.getTime() + MS_PER_DAY) : morning
}

/** Where a reminder sends the customer: the one-tap renewal of that service. */
export const renewalPath = (serviceId: string) => `/renew/${serviceId}`
