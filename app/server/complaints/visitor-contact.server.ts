import { createCookie } from 'react-router'
import { type ComplaintContact } from '~/domain/complaints'
import { OTP_VALID_MINUTES } from '~/domain/one-time-codes'
import { brandNames } from '../brand.server'
import { env } from '../env.server'
import { enqueueEmail } from '../jobs/queue.server'
import { serverSecret } from '../secrets.server'

// A visitor's contact for /complaints/new, confirmed with a code before anything is filed.

/** Between a visitor's code and their complaint: the contact, once confirmed, for 30 minutes (signed). */
const complaintContactCookie = createCookie('complaint-contact', {
  httpOnly: true,
  secure: !env.DEMO_MODE,
  sameSite: 'lax',
  path: '/complaints',
  maxAge: 30 * 60,
  secrets: [serverSecret('complaint-contact-cookie')],
})
export type PendingContact = ComplaintContact & { confirmed: boolean }

export async function readComplaintContact(request: Request): Promise<PendingContact | null> {
  const value: unknown = await complaintContactCookie.parse(request.headers.get('Cookie'))
  if (!value || typeof value !== 'object') return null
  const contact = value as Partial<PendingContact> & { kind?: string }
  if (contact.kind === 'phone' && typeof (contact as { phone?: unknown }).phone === 'string')
    return { kind: 'phone', phone: (contact as { phone: string }).phone, confirmed: contact.confirmed === true }
  if (contact.kind === 'email' && typeof (contact as { email?: unknown }).email === 'string')
    return { kind: 'email', email: (contact as { email: string }).email, confirmed: contact.confirmed === true }
  return null
}
export const rememberComplaintContact = (contact: PendingContact) => complaintContactCookie.serialize(contact)
export const forgetComplaintContact = () => complaintContactCookie.serialize('', { maxAge: 0 })

/** The e-mail that carries a visitor's confirmation code. */
export async function emailComplaintCode(email: string, code: string): Promise<void> {
  const { brand } = await brandNames()
  await enqueueEmail({
    to: email,
    template: 'complaint-contact-code',
    secret: code,
    subject: 'Your code to file a complaint',
    body: `${code} is your code to file a complaint with ${brand}. It expires in ${OTP_VALID_MINUTES} minutes. Our team will never ask you for this code.`,
  })
}
