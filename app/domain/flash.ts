import { z } from 'zod'

// A flash message: what an action says to the page it redirects to, once (app/server/http/flash.server.ts).

export const FLASH_TONES = ['success', 'info', 'error'] as const
export type FlashTone = (typeof FLASH_TONES)[number]

/** Longest message and detail line kept: a cookie holds about 4 KB, and a flash is a sentence or two. */
export const FLASH_TEXT_MAX_LENGTH = 300
/** At most this many detail lines (the services a payment added, for one). */
export const FLASH_DETAILS_MAX = 10

export const FlashSchema = z.object({
  tone: z.enum(FLASH_TONES),
  message: z.string().min(1).max(FLASH_TEXT_MAX_LENGTH),
  /** Lines shown as a list under the message. */
  details: z.array(z.string().max(FLASH_TEXT_MAX_LENGTH)).max(FLASH_DETAILS_MAX).optional(),
  /** A page of this site the message leads to (a payment's invoice), shown after the lines. */
  link: z
    .object({
      // A path of this site only ("/invoices/..."), never another site's address.
      href: z
        .string()
        .regex(/^\/(?![/\\])/)
        .max(FLASH_TEXT_MAX_LENGTH),
      label: z.string().min(1).max(FLASH_TEXT_MAX_LENGTH),
    })
    .optional(),
})

export type Flash = z.infer<typeof FlashSchema>

/** A flash cut to what the cookie may carry: long texts end in "…", extra lines are dropped. */
export function boundedFlash(flash: Flash): Flash {
  const cut = (text: string) =>
    text.length > FLASH_TEXT_MAX_LENGTH ? `${text.slice(0, FLASH_TEXT_MAX_LENGTH - 1)}…` : text
  return {
    tone: flash.tone,
    message: cut(flash.message),
    ...(flash.details ? { details: flash.details.slice(0, FLASH_DETAILS_MAX).map(cut) } : {}),
    ...(flash.link ? { link: { href: flash.link.href, label: cut(flash.link.label) } } : {}),
  }
}
