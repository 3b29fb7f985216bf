import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { ComplaintFormSchema } from '~/domain/complaint-forms'
import {
  ATTACHMENT_FIELD_NAME,
  ATTACHMENT_MESSAGES,
  COMPLAINT_REFERENCE_PATTERN,
  CONTACT_MESSAGE,
  CONTACT_NOT_CONFIRMED_MESSAGE,
  contactOtpKey,
  describeContact,
  parseComplaintContact,
} from '~/domain/complaints'
import { formatIndiaDate, indiaMidnight } from '~/domain/dates'
import { nationalMobileNumber, VerifyCodeSchema } from '~/domain/sign-in'
import {
  emailComplaintCode,
  forgetComplaintContact,
  readComplaintContact,
  rememberComplaintContact,
  type PendingContact,
} from './visitor-contact.server'
import { fileComplaint } from './filing.server'
import { prisma } from '../db.server'
import { readForm } from '../http/form-data.server'
import { checkTypedCode, requestOtp } from '../auth/one-time-codes.server'
import { readPanCardUpload } from '../kyc/pan-card-image.server'
import { discardReceivedFile, type ReceivedFile } from '../http/received-file.server'
import { getSessionUser } from '../session.server'

// The steps of /complaints/new: a visitor confirms a phone or e-mail with a code, then files;
// a signed-in customer files straight away. Nothing is filed before the contact is confirmed.

export type ComplaintPageAnswer = {
  status: number
  headers?: Record<string, string>
  redirectTo?: string
  formError?: string
  result?: SubmissionResult<string[]>
  setCookie?: string
}

const MISSING_FORM = 'Something was missing from the form. Please try again.'

const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get('Content-Type') ?? '')

async function readComplaintRequest(
  request: Request,
): Promise<
  { ok: true; fields: FormData; attachment: ReceivedFile | null } | { ok: false; answer: ComplaintPageAnswer }
> {
  if (!isMultipart(request)) return { ok: true, fields: await readForm(request), attachment: null }
  const upload = await readPanCardUpload(request, { fieldName: ATTACHMENT_FIELD_NAME, messages: ATTACHMENT_MESSAGES })
  if (upload.ok) return { ok: true, fields: upload.fields, attachment: upload.file }
  // No file chosen: the attachment is optional.
  if (upload.status === 400 && upload.message === ATTACHMENT_MESSAGES.missing)
    return { ok: true, fields: upload.fields, attachment: null }
  const typed = parseWithZod(upload.fields, { schema: ComplaintFormSchema })
  return {
    ok: false,
    answer: {
      status: upload.status,
      headers: upload.headers,
      result: typed.reply({ fieldErrors: { [ATTACHMENT_FIELD_NAME]: [upload.message] } }),
    },
  }
}

export async function complaintPageAction(
  request: Request,
  clientIp: string,
  now = new Date(),
): Promise<ComplaintPageAnswer> {
  const user = await getSessionUser(request)
  const pending = user ? null : await readComplaintContact(request)
  // Nothing large before trust: only the filing form posts multipart (with its attachment), and a
  // visitor's is refused before one byte of its body is read until the contact is confirmed. The
  // rest of the body is read and dropped by lingeringClose (decision 042), never kept.
  if (!user && !pending?.confirmed && isMultipart(request))
    return { status: 403, formError: CONTACT_NOT_CONFIRMED_MESSAGE, headers: { Connection: 'close' } }
  const read = await readComplaintRequest(request)
  if (!read.ok) return read.answer
  try {
    return await answerComplaintForm(read, { user, pending, clientIp, now })
  } finally {
    // The attachment is moved into storage by now, or not to be kept (decision 058).
    await discardReceivedFile(read.attachment)
  }
}

async function answerComplaintForm(
  { fields, attachment }: { fields: FormData; attachment: ReceivedFile | null },
  {
    user,
    pending,
    clientIp,
    now,
  }: { user: { id: string } | null; pending: PendingContact | null; clientIp: string; now: Date },
): Promise<ComplaintPageAnswer> {
  const intent = fields.get('intent')

  if (!user && intent === 'send') {
    const contact = parseComplaintContact(String(fields.get('contact') ?? ''), (written) =>
      nationalMobileNumber(written, '91'),
    )
    if (!contact) return { status: 400, formError: CONTACT_MESSAGE }
    const sent = await requestOtp({
      phone: contactOtpKey(contact),
      ip: clientIp,
      now,
      ...(contact.kind === 'email' ? { send: (code: string) => emailComplaintCode(contact.email, code) } : {}),
    })
    if (!sent.ok && sent.refusedBy === 'address') return { status: 429, formError: sent.message }
    return {
      status: 303,
      redirectTo: `/complaints/new?sent=${sent.ok ? '1' : 'earlier'}`,
      setCookie: await rememberComplaintContact({ ...contact, confirmed: false }),
    }
  }
  if (!user && intent === 'change')
    return { status: 303, redirectTo: '/complaints/new', setCookie: await forgetComplaintContact() }
  if (!user && intent === 'verify') {
    if (!pending) return { status: 400, formError: 'Your code took too long. Enter your number or e-mail again.' }
    const typed = VerifyCodeSchema.safeParse({ code: fields.get('code') })
    if (!typed.success) return { status: 400, formError: typed.error.issues[0]!.message }
    const checked = await checkTypedCode({
      phone: contactOtpKey(pending),
      code: typed.data.code,
      ip: clientIp,
      now,
      sentTo: pending.kind === 'email' ? 'address' : 'number',
    })
    if (!checked.ok) return { status: checked.status, formError: checked.message }
    return {
      status: 303,
      redirectTo: '/complaints/new',
      setCookie: await rememberComplaintContact({ ...pending, confirmed: true }),
    }
  }
  if (intent !== 'file') return { status: 400, formError: MISSING_FORM }
  if (!user && !pending?.confirmed) return { status: 403, formError: CONTACT_NOT_CONFIRMED_MESSAGE }

  const submission = parseWithZod(fields, { schema: ComplaintFormSchema })
  if (submission.status !== 'success') return { status: 400, result: submission.reply() }
  const filed = await fileComplaint({
    source: 'DIRECTLY_FROM_INVESTORS',
    ...submission.value,
    userId: user?.id ?? null,
    contactPhone: pending?.kind === 'phone' ? pending.phone : null,
    contactEmail: pending?.kind === 'email' ? pending.email : null,
    receivedAt: now,
    attachment,
  })
  return { status: 303, redirectTo: `/complaints/new?filed=${filed.reference}` }
}

export type ComplaintPageState =
  | { step: 'contact' }
  | { step: 'code'; contact: string; sent: string | null }
  | { step: 'form'; filingAs: string | null; signedIn: boolean }

export async function complaintPageState(request: Request) {
  const user = await getSessionUser(request)
  const url = new URL(request.url)
  const pending: PendingContact | null = user ? null : await readComplaintContact(request)
  const state: ComplaintPageState = user
    ? { step: 'form', filingAs: user.name ?? user.phone, signedIn: true }
    : !pending
      ? { step: 'contact' }
      : !pending.confirmed
        ? { step: 'code', contact: describeContact(pending), sent: url.searchParams.get('sent') }
        : { step: 'form', filingAs: describeContact(pending), signedIn: false }
  const reference = url.searchParams.get('filed')
  let filed: { reference: string; dueOn: string } | null = null
  if (reference && COMPLAINT_REFERENCE_PATTERN.test(reference) && (user || pending?.confirmed)) {
    const row = await prisma.complaint.findUnique({
      where: { reference },
      select: { reference: true, dueOn: true, userId: true, contactPhone: true, contactEmail: true },
    })
    const mine =
      row &&
      (user
        ? row.userId === user.id
        : pending?.kind === 'phone'
          ? row.contactPhone === pending.phone
          : row.contactEmail === pending?.email)
    if (row && mine)
      filed = { reference: row.reference, dueOn: formatIndiaDate(indiaMidnight(row.dueOn.toISOString().slice(0, 10))) }
  }
  return { state, filed }
}
