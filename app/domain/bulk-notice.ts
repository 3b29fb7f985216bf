import { z } from 'zod'
import { isIndianMobileNumber, nationalMobileNumber } from './sign-in'

// A notice the team e-mails to a chosen set of customers at once (issue 28 item 7): a breach notice
// (docs/regulatory.md, "A personal data breach"), a change of the service, a holiday. Pure rules,
// shared by the admin's form and the server that sends it.

export const BULK_NOTICE_AUDIENCES = ['OPEN', 'HELD', 'SERVICE', 'CHOSEN'] as const
export type BulkNoticeAudience = (typeof BULK_NOTICE_AUDIENCES)[number]

export const BULK_NOTICE_AUDIENCE_LABELS: Record<BulkNoticeAudience, string> = {
  OPEN: 'Every customer with an open account',
  HELD: 'Everyone whose personal data we hold, closed accounts too (for a data breach notice)',
  SERVICE: 'The subscribers of one service (running subscriptions)',
  CHOSEN: 'Chosen customers, by mobile number (closed accounts too)',
}

/** Closed accounts get these too: a breach notice must reach everyone whose data the store holds. */
export function bulkNoticeReachesClosedAccounts(audience: BulkNoticeAudience): boolean {
  return audience === 'HELD' || audience === 'CHOSEN'
}

/** The notice's paragraphs: the text as written, split at blank lines. */
export function bulkNoticeParagraphs(body: string): string[] {
  return body
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
}

export const BULK_NOTICE_SUBJECT_MAX = 150
export const BULK_NOTICE_BODY_MAX = 5_000
/** Chosen by hand: a list longer than this is an audience of its own kind ("every customer", "a service"). */
export const BULK_NOTICE_CHOSEN_MAX = 1_000

const INDIA_DIAL_CODE = '91'

/** The E.164 numbers of a pasted list (one per line, or separated by commas), and the entries that are not Indian mobiles. */
export function chosenMobileNumbers(written: string): { numbers: string[]; refused: string[] } {
  const numbers = new Set<string>()
  const refused: string[] = []
  for (const line of written.split(/[\n,;]+/).map((entry) => entry.trim())) {
    if (!line) continue
    const national = nationalMobileNumber(line, INDIA_DIAL_CODE)
    if (national && isIndianMobileNumber(national)) numbers.add(`+${INDIA_DIAL_CODE}${national}`)
    else refused.push(line)
  }
  return { numbers: [...numbers], refused }
}

export const BulkNoticeFormSchema = z
  .object({
    audience: z.enum(BULK_NOTICE_AUDIENCES, { error: 'Choose who receives it' }),
    serviceId: z.string().trim().optional(),
    phones: z.string().trim().optional(),
    subject: z
      .string({ error: 'Write a subject' })
      .trim()
      .min(3, 'Write a subject')
      .max(BULK_NOTICE_SUBJECT_MAX, `At most ${BULK_NOTICE_SUBJECT_MAX} characters`),
    body: z
      .string({ error: 'Write the notice' })
      .trim()
      .min(10, 'Write the notice')
      .max(BULK_NOTICE_BODY_MAX, `At most ${BULK_NOTICE_BODY_MAX.toLocaleString('en-IN')} characters`),
  })
  .superRefine((notice, context) => {
    if (notice.audience === 'SERVICE' && !notice.serviceId)
      context.addIssue({ code: 'custom', path: ['serviceId'], message: 'Choose the service' })
    if (notice.audience !== 'CHOSEN') return
    const { numbers, refused } = chosenMobileNumbers(notice.phones ?? '')
    if (refused.length)
      context.addIssue({
        code: 'custom',
        path: ['phones'],
        message: `Not a 10-digit Indian mobile number: ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ` and ${refused.length - 5} more` : ''}`,
      })
    else if (numbers.length === 0)
      context.addIssue({ code: 'custom', path: ['phones'], message: 'Give at least one mobile number' })
    else if (numbers.length > BULK_NOTICE_CHOSEN_MAX)
      context.addIssue({
        code: 'custom',
        path: ['phones'],
        message: `At most ${BULK_NOTICE_CHOSEN_MAX.toLocaleString('en-IN')} numbers; for more, choose every customer or a service`,
      })
  })

export type BulkNoticeForm = z.infer<typeof BulkNoticeFormSchema>

/** "1 customer", "2 customers". */
export function customersCount(count: number): string {
  return `${count.toLocaleString('en-IN')} customer${count === 1 ? '' : 's'}`
}
