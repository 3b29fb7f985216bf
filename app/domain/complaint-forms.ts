import { z } from 'zod'
import {
  type ComplaintCategory,
  COMPLAINT_CATEGORIES,
  COMPLAINT_MESSAGE_MAX_CHARS,
  COMPLAINT_STATUSES,
  COMPLAINT_TEXT_MAX_CHARS,
  COMPLAINT_TEXT_TOO_LONG,
  complaintStepNeedsMessage,
} from './complaints'
import { plainText } from './plain-text'

// The complaint forms' rules (docs/regulatory.md, Complaint register), apart from ./complaints.ts so that pages showing
// a complaint form's fields do not load Zod.

const CATEGORY_VALUES = COMPLAINT_CATEGORIES.map((category) => category.value) as [
  ComplaintCategory,
  ...ComplaintCategory[],
]

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
