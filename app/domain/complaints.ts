import { z } from 'zod'
import { MS_PER_DAY } from './dates'
import { hasControlCharacter, plainText } from './plain-text'

// The complaint register (issue 20): categories, steps, due dates and the form's rules, shared by
// the server and the pages.

export const COMPLAINT_CATEGORIES = [
  { value: 'SERVICE_DEFICIENCY', label: 'Service deficiency' },
  { value: 'PAYMENT_OR_REFUND', label: 'Payment or refund' },
  { value: 'RESEARCH_CONTENT', label: 'Research content' },
  { value: 'CONDUCT', label: 'Conduct' },
  // A privacy grievance (DPDP Act s.13): answered within the 21 days like the rest, inside the SPDI
  // Rules' one month and the DPDP Rules' 90 days.
  { value: 'PRIVACY', label: 'Privacy / personal data' },
  { value: 'OTHER', label: 'Other' },
] as const
export type ComplaintCategory = (typeof COMPLAINT_CATEGORIES)[number]['value']
const CATEGORY_VALUES = COMPLAINT_CATEGORIES.map((category) => category.value) as [
  ComplaintCategory,
  ...ComplaintCategory[],
]
export const complaintCategoryLabel = (category: ComplaintCategory) =>
  COMPLAINT_CATEGORIES.find((entry) => entry.value === category)!.label

export const COMPLAINT_STATUSES = ['RECEIVED', 'ACKNOWLEDGED', 'ANSWERED', 'RESOLVED', 'CLOSED'] as const
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number]
export const COMPLAINT_STATUS_LABELS: Record<ComplaintStatus, string> = {
  RECEIVED: 'Received',
  ACKNOWLEDGED: 'Acknowledged',
  ANSWERED: 'Answered',
  RESOLVED: 'Resolved',
  CLOSED: 'Closed',
}

/** Which steps may follow each status: forwards only (a further answer is allowed), closed is final. */
export const NEXT_COMPLAINT_STATUSES: Record<ComplaintStatus, readonly ComplaintStatus[]> = {
  RECEIVED: ['ACKNOWLEDGED', 'ANSWERED', 'RESOLVED'],
  ACKNOWLEDGED: ['ANSWERED', 'RESOLVED'],
  ANSWERED: ['ANSWERED', 'RESOLVED'],
  RESOLVED: ['CLOSED'],
  CLOSED: [],
}
export const canMoveComplaint = (from: ComplaintStatus, to: ComplaintStatus) =>
  NEXT_COMPLAINT_STATUSES[from].includes(to)
/** Steps whose text the complainant must be sent (the answer itself). */
export const complaintStepNeedsMessage = (status: ComplaintStatus) => status === 'ANSWERED' || status === 'RESOLVED'
/** Still the team's to handle: counted as due. */
export const isOpenComplaint = (status: ComplaintStatus) => status !== 'RESOLVED' && status !== 'CLOSED'

/** SEBI: service deficiency within 7 business days, everything else within 21 days. */
export const SERVICE_DEFICIENCY_BUSINESS_DAYS = 7
export const COMPLAINT_CALENDAR_DAYS = 21
/** The admin list and the daily e-mail show what is overdue or due within this many days. */
export const COMPLAINT_DUE_SOON_DAYS = 3

const isoDay = (date: Date) => date.toISOString().slice(0, 10)
const addDays = (isoDate: string, days: number) =>
  isoDay(new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * MS_PER_DAY))

/** Monday to Friday, and not on the holiday list ("YYYY-MM-DD" dates). */
export function isIndiaBusinessDay(isoDate: string, holidays: readonly string[]): boolean {
  const weekday = new Date(`${isoDate}T00:00:00Z`).getUTCDay()
  return weekday !== 0 && weekday !== 6 && !holidays.includes(isoDate)
}

/**
 * The date by which a complaint received on `receivedOn` (India's calendar date, YYYY-MM-DD) must
 * be resolved: the 7th business day after it for a service deficiency (the day received does not
 * count), else 21 calendar days after it.
 */
export function complaintDueOn(category: ComplaintCategory, receivedOn: string, holidays: readonly string[]): string {
  if (category !== 'SERVICE_DEFICIENCY') return addDays(receivedOn, COMPLAINT_CALENDAR_DAYS)
  let day = receivedOn
  let counted = 0
  while (counted < SERVICE_DEFICIENCY_BUSINESS_DAYS) {
    day = addDays(day, 1)
    if (isIndiaBusinessDay(day, holidays)) counted += 1
  }
  return day
}

/** Whether an open complaint due on `dueOn` is overdue, due soon (within 3 days) or neither, on `today`. */
export function complaintUrgency(dueOn: string, today: string): 'overdue' | 'due-soon' | null {
  if (dueOn < today) return 'overdue'
  if (dueOn <= addDays(today, COMPLAINT_DUE_SOON_DAYS)) return 'due-soon'
  return null
}
/** The last due date the list and the daily e-mail include. */
export const dueSoonUntil = (today: string) => addDays(today, COMPLAINT_DUE_SOON_DAYS)

/** "CMP-2026-000123". */
export const complaintReference = (year: number, sequence: number) => `CMP-${year}-${String(sequence).padStart(6, '0')}`
export const COMPLAINT_REFERENCE_PATTERN = /^CMP-\d{4}-\d{6}$/

export const COMPLAINT_TEXT_MAX_CHARS = 5000
export const COMPLAINT_MESSAGE_MAX_CHARS = 5000
export const COMPLAINT_TEXT_TOO_LONG = `Your complaint is too long: at most ${COMPLAINT_TEXT_MAX_CHARS.toLocaleString('en-IN')} characters. Shorten it, or attach an image.`

export const ATTACHMENT_FIELD_NAME = 'attachment'
export const ATTACHMENT_MESSAGES = {
  missing: '',
  empty: 'The file you chose is empty. Choose another, or leave the attachment out.',
  tooLarge: 'The attachment is larger than 10 MB. Attach a smaller image.',
  wrongType: 'Attach a JPEG, PNG or WebP image. PDFs and other files are not accepted.',
  unreadable: 'The form could not be read. Please try again.',
  interrupted: 'The form did not go through. Check your connection and try again.',
} as const

/** The complaint itself, from the form (a customer's or a confirmed visitor's). */
export const ComplaintFormSchema = z.object({
  category: z.enum(CATEGORY_VALUES, { error: 'Choose what your complaint is about.' }),
  text: plainText(z.string({ error: 'Describe your complaint.' }), { multiLine: true })
    .trim()
    .min(1, 'Describe your complaint.')
    .max(COMPLAINT_TEXT_MAX_CHARS, COMPLAINT_TEXT_TOO_LONG),
  impersonation: z
    .literal('on')
    .optional()
    .transform((value) => value === 'on'),
})
export type ComplaintForm = z.infer<typeof ComplaintFormSchema>

/** A visitor's contact: an Indian mobile number or an e-mail address, confirmed with a code. */
export const ComplaintContactSchema = z.object({
  contact: z
    .string({ error: 'Enter your mobile number or e-mail address.' })
    .trim()
    .min(1, 'Enter your mobile number or e-mail address.')
    .max(254, 'Enter your mobile number or e-mail address.'),
})

/** The admin's step: the new status and the text sent to the complainant. */
export const ComplaintStepSchema = z
  .object({
    status: z.enum(COMPLAINT_STATUSES, { error: 'Choose the next step.' }),
    message: plainText(z.string(), { multiLine: true })
      .trim()
      .max(COMPLAINT_MESSAGE_MAX_CHARS, `At most ${COMPLAINT_MESSAGE_MAX_CHARS} characters.`)
      .optional(),
    version: z.coerce.number().int().min(0),
  })
  .refine((step) => !complaintStepNeedsMessage(step.status) || !!step.message, {
    path: ['message'],
    message: 'Write the answer the complainant will receive.',
  })

/** A complaint the admin enters from SCORES or another source, with that source's own reference. */
export const EnteredComplaintSchema = z.object({
  source: z.enum(['SEBI_SCORES', 'OTHER_SOURCES', 'DIRECTLY_FROM_INVESTORS'], { error: 'Choose the source.' }),
  sourceReference: plainText(z.string({ error: 'Enter the reference it has at its source.' }))
    .trim()
    .min(1, 'Enter the reference it has at its source.')
    .max(60),
  category: z.enum(CATEGORY_VALUES, { error: 'Choose a category.' }),
  receivedOn: z.iso.date({ error: 'Enter the date it was received.' }),
  complainantName: plainText().trim().max(120).optional(),
  contactEmail: z.email({ error: 'Enter a valid e-mail address.' }).max(254).optional(),
  contactPhone: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, 'Enter the number with its country code, like +919876543210.')
    .optional(),
  text: plainText(z.string({ error: 'Enter the complaint.' }), { multiLine: true })
    .trim()
    .min(1, 'Enter the complaint.')
    .max(COMPLAINT_TEXT_MAX_CHARS, COMPLAINT_TEXT_TOO_LONG),
  impersonation: z
    .literal('on')
    .optional()
    .transform((value) => value === 'on'),
})

/** A visitor's contact as typed: an Indian mobile number (E.164) or an e-mail address; null when it is neither. */
export type ComplaintContact = { kind: 'phone'; phone: string } | { kind: 'email'; email: string }
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export function parseComplaintContact(
  typed: string,
  nationalMobile: (written: string) => string | null,
): ComplaintContact | null {
  const value = typed.trim()
  if (hasControlCharacter(value)) return null
  if (value.includes('@'))
    return EMAIL_PATTERN.test(value) && value.length <= 254 ? { kind: 'email', email: value.toLowerCase() } : null
  const national = nationalMobile(value)
  return national ? { kind: 'phone', phone: `+91${national}` } : null
}
export const CONTACT_MESSAGE = 'Enter your 10-digit mobile number (India) or your e-mail address.'
export const describeContact = (contact: ComplaintContact) => (contact.kind === 'phone' ? contact.phone : contact.email)
/** The key its codes are kept under: the number itself, or "email:" and the address. */
export const contactOtpKey = (contact: ComplaintContact) =>
  contact.kind === 'phone' ? contact.phone : `email:${contact.email}`
