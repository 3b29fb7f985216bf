import { MS_PER_DAY } from './dates'
import { MS_PER_MINUTE } from './durations'
import { hasControlCharacter } from './control-characters'

// The complaint register (docs/regulatory.md, Complaint register): categories, steps, due dates and the form's rules,
// shared by the server and the pages.

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
/** The same text from the same person within this long (either way) is the complaint already filed: a second press files nothing. */
export const SAME_COMPLAINT_WINDOW_MS = 10 * MS_PER_MINUTE
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
/**
 * A visitor's complaint (and its attachment) before their contact is confirmed, e.g. after the
 * 30-minute confirmation ran out: refused before the body is read, so nothing was sent.
 */
export const CONTACT_NOT_CONFIRMED_MESSAGE =
  'Confirm your mobile number or e-mail address with a code before you file. Your complaint was not sent: file it again once confirmed.'
export const describeContact = (contact: ComplaintContact) => (contact.kind === 'phone' ? contact.phone : contact.email)
/** The key its codes are kept under: the number itself, or "email:" and the address. */
export const contactOtpKey = (contact: ComplaintContact) =>
  contact.kind === 'phone' ? contact.phone : `email:${contact.email}`
