import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import * as adminComplaintRoute from '~/routes/admin/complaint'
import * as adminComplaintsRoute from '~/routes/admin/complaints'
import * as complaintsRoute from '~/routes/complaints'
import * as newComplaintRoute from '~/routes/complaints.new'
import {
  ATTACHMENT_MESSAGES,
  COMPLAINT_TEXT_TOO_LONG,
  CONTACT_NOT_CONFIRMED_MESSAGE,
  SAME_COMPLAINT_WINDOW_MS,
} from '~/domain/complaints'
import { brandWithRegisteredName } from '~/domain/business-details'
import { indiaIsoDate } from '~/domain/dates'
import { COMPLAINT_ESCALATION_LADDER } from '~/content/legal/complaint-escalation'
import { businessDetails } from '~/server/business.server'
import { COMPLAINT_CONFLICT_MESSAGE, takeComplaintStep } from '~/server/complaints/register.server'
import { fileComplaint } from '~/server/complaints/filing.server'
import { sendComplaintsDueDigest } from '~/server/complaints/due-digest.server'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { queuedEmails } from '../support/queued-emails'
import { jpegOfSize, PDF, streamedUploadRequest, TINY_PNG } from '../support/multipart'
import { cookieOf, formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

afterAll(() => stopJobs())

type Reply = {
  init: { status: number }
  data: { formError?: string; result?: { error?: Record<string, string[] | null> } }
}
const uniqueIp = () => `10.7.${randomInt(256)}.${randomInt(256)}`
const uniquePhone = () => `+919${String(randomInt(0, 1e9)).padStart(9, '0')}`

function multipartPost(
  fields: Record<string, string>,
  cookie?: string,
  file?: { bytes: Uint8Array; name: string; type: string },
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (file) form.append('attachment', new Blob([file.bytes as BlobPart], { type: file.type }), file.name)
  else form.append('attachment', new Blob([]), '')
  return new Request('http://localhost/complaints/new', {
    method: 'POST',
    body: form,
    headers: cookie ? { Cookie: cookie } : {},
  })
}

async function act(request: Request, ip = uniqueIp()) {
  return (await newComplaintRoute.action(routeArgs(request, {}, { clientIp: ip, cspNonce: '' }))) as Response | Reply
}
const statusOf = (reply: Response | Reply) => (reply instanceof Response ? reply.status : reply.init.status)

async function codeSentBySms(phone: string): Promise<string> {
  const [job] = await prisma.$queryRaw<{ data: { code: string } }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-sms' AND data->>'to' = ${phone} ORDER BY created_on DESC LIMIT 1`
  return job!.data.code
}

/** A visitor who asked for a code for `contact`; the cookie of the pending contact. */
async function askForCode(contact: string, ip: string): Promise<string> {
  const sent = await act(formRequest('/complaints/new', { intent: 'send', contact }), ip)
  expect(statusOf(sent)).toBe(302)
  return cookieOf((sent as Response).headers.get('Set-Cookie')!)
}

async function confirm(cookie: string, code: string, ip: string): Promise<string> {
  const verified = await act(formRequest('/complaints/new', { intent: 'verify', code }, cookie), ip)
  expect(statusOf(verified)).toBe(302)
  return cookieOf((verified as Response).headers.get('Set-Cookie')!)
}

const complaintText = 'The research note of 20 November was not delivered.'

/** The e-mail's own text comes first, and the escalation ladder after it, as the last thing it says. */
function expectEndsWithEscalationLadder(body: string, ownText: string) {
  const ladderAt = body.indexOf(COMPLAINT_ESCALATION_LADDER)
  expect(ladderAt, body).toBeGreaterThan(body.indexOf(ownText))
  expect(body.indexOf(ownText)).toBeGreaterThanOrEqual(0)
  expect(body.slice(ladderAt + COMPLAINT_ESCALATION_LADDER.length), body).not.toMatch(/complaint/i)
}

describe('filing a complaint', () => {
  it('files a visitor complaint once the phone is confirmed, with a reference, due date and SMS', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const pending = await askForCode(phone, ip)
    const confirmed = await confirm(pending, await codeSentBySms(phone), ip)
    const filed = (await act(
      multipartPost(
        { intent: 'file', category: 'SERVICE_DEFICIENCY', text: complaintText, impersonation: 'on' },
        confirmed,
      ),
      ip,
    )) as Response
    expect(filed.status).toBe(302)
    const location = filed.headers.get('Location')!
    expect(location).toMatch(/^\/complaints\/new\?filed=CMP-\d{4}-\d{6}$/)
    const reference = location.split('=')[1]!
    const row = await prisma.complaint.findUniqueOrThrow({ where: { reference }, include: { events: true } })
    expect(row).toMatchObject({
      contactPhone: phone,
      userId: null,
      category: 'SERVICE_DEFICIENCY',
      impersonation: true,
      status: 'RECEIVED',
    })
    expect(row.events.map((event) => event.status)).toEqual(['RECEIVED'])

    const page = await newComplaintRoute.loader(routeArgs(getRequest(location, confirmed)))
    expect(page.filed).toMatchObject({ reference })
    const [notice] = await prisma.$queryRaw<{ data: { text: string } }[]>`
      SELECT data FROM pgboss.job WHERE name = 'send-notice-sms' AND data->>'to' = ${phone}`
    expect(notice!.data.text).toContain(reference)
    expect(notice!.data.text).toContain(page.filed!.dueOn)
    expect(notice!.data.text.endsWith(` ${COMPLAINT_ESCALATION_LADDER}`)).toBe(true)
  })

  it('files nothing for a visitor who never confirms the code (or gives a wrong one)', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const pending = await askForCode(phone, ip)
    const refused = await act(multipartPost({ intent: 'file', category: 'OTHER', text: complaintText }, pending), ip)
    expect(statusOf(refused)).toBe(403)
    const code = await codeSentBySms(phone)
    const wrong = await act(
      formRequest('/complaints/new', { intent: 'verify', code: code === '000000' ? '111111' : '000000' }, pending),
      ip,
    )
    expect(statusOf(wrong)).toBe(400)
    const noCookie = await act(multipartPost({ intent: 'file', category: 'OTHER', text: complaintText }), ip)
    expect(statusOf(noCookie)).toBe(403)
    expect(await prisma.complaint.count({ where: { contactPhone: phone } })).toBe(0)
  })

  it("refuses a visitor's attachment before reading any of it when the contact is not confirmed", async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const pending = await askForCode(phone, ip)
    for (const cookie of [pending, undefined]) {
      const upload = streamedUploadRequest(10 * 1024 * 1024, { headers: cookie ? { Cookie: cookie } : {} })
      const refused = (await act(upload.request, ip)) as Reply
      expect(refused.init.status).toBe(403)
      expect(refused.data.formError).toBe(CONTACT_NOT_CONFIRMED_MESSAGE)
      // The answer came while the client had sent only its headers: not one byte of the body was read.
      expect(upload.progress.pulledBytes).toBe(0)
    }
    expect(await prisma.complaint.count({ where: { contactPhone: phone } })).toBe(0)
  })

  it('confirms an e-mail address with a code sent by e-mail, and e-mails the reference', async () => {
    const email = `visitor${randomInt(1e9)}@example.in`
    const ip = uniqueIp()
    const pending = await askForCode(email, ip)
    const [codeEmail] = await queuedEmails(email)
    const code = /\b(\d{6})\b/.exec(codeEmail!.body)![1]!
    const confirmed = await confirm(pending, code, ip)
    const filed = await act(
      multipartPost({ intent: 'file', category: 'PAYMENT_OR_REFUND', text: complaintText }, confirmed),
      ip,
    )
    expect(statusOf(filed)).toBe(302)
    const row = await prisma.complaint.findFirstOrThrow({ where: { contactEmail: email } })
    const emails = await queuedEmails(email)
    expect(emails.at(-1)!.subject).toBe(`Complaint ${row.reference} received`)
    expectEndsWithEscalationLadder(emails.at(-1)!.body, `We received your complaint ${row.reference}`)
  })

  it('files a signed-in customer complaint with an image, and shows it at /complaints', async () => {
    const customer = await signedInUser()
    const filed = await act(
      multipartPost({ intent: 'file', category: 'RESEARCH_CONTENT', text: complaintText }, customer.cookie, {
        bytes: TINY_PNG,
        name: 'screen.png',
        type: 'image/png',
      }),
    )
    expect(statusOf(filed)).toBe(302)
    const row = await prisma.complaint.findFirstOrThrow({ where: { userId: customer.userId } })
    expect(row.attachmentKey).toMatch(/^complaints\/[0-9a-f]{32}\.png$/)
    const list = await complaintsRoute.loader(routeArgs(getRequest('/complaints', customer.cookie)))
    expect(list.complaints.map((complaint) => complaint.reference)).toEqual([row.reference])
  })

  it('refuses a 60 KB text with a message, and files nothing', async () => {
    const customer = await signedInUser()
    const reply = (await act(
      multipartPost({ intent: 'file', category: 'OTHER', text: 'x'.repeat(60 * 1024) }, customer.cookie),
    )) as Reply
    expect(reply.init.status).toBe(400)
    expect(reply.data.result?.error?.text).toEqual([COMPLAINT_TEXT_TOO_LONG])
    expect(await prisma.complaint.count({ where: { userId: customer.userId } })).toBe(0)
  })

  it.each([
    ['a PDF', PDF, 415, ATTACHMENT_MESSAGES.wrongType],
    ['an image over 10 MB', jpegOfSize(10 * 1024 * 1024 + 1), 413, ATTACHMENT_MESSAGES.tooLarge],
  ])('refuses %s as the attachment, with a message', async (_label, bytes, status, message) => {
    const customer = await signedInUser()
    const reply = (await act(
      multipartPost({ intent: 'file', category: 'OTHER', text: complaintText }, customer.cookie, {
        bytes,
        name: 'file.jpg',
        type: 'image/jpeg',
      }),
    )) as Reply
    expect(reply.init.status).toBe(status)
    expect(reply.data.result?.error?.attachment).toEqual([message])
    expect(await prisma.complaint.count({ where: { userId: customer.userId } })).toBe(0)
  })
})

describe('a complaint sent twice', () => {
  const filedReference = (reply: Response | Reply) => {
    expect(statusOf(reply)).toBe(302)
    return (reply as Response).headers.get('Location')!.split('=')[1]!
  }

  it('files two concurrent presses of a customer as one complaint, told once', async () => {
    const customer = await signedInUser()
    const press = () =>
      act(multipartPost({ intent: 'file', category: 'SERVICE_DEFICIENCY', text: complaintText }, customer.cookie))
    const [first, second] = await Promise.all([press(), press()])
    expect(filedReference(second)).toBe(filedReference(first))
    const rows = await prisma.complaint.findMany({ where: { userId: customer.userId } })
    expect(rows.map((row) => row.reference)).toEqual([filedReference(first)])
    const told = await prisma.$queryRaw<{ count: bigint }[]>`
      SELECT count(*) FROM pgboss.job WHERE name = 'send-notice-sms' AND data->>'text' LIKE ${`%${rows[0]!.reference}%`}`
    expect(Number(told[0]!.count)).toBe(1)
  })

  it("files a visitor's second submission of the same text a minute later as the same complaint", async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const confirmed = await confirm(await askForCode(phone, ip), await codeSentBySms(phone), ip)
    const send = (text: string) =>
      act(multipartPost({ intent: 'file', category: 'OTHER', text }, confirmed), ip).then(filedReference)
    const [first, second] = await Promise.all([send(complaintText), send(complaintText)])
    expect(second).toBe(first)
    expect(await send(complaintText)).toBe(first)
    const other = await send('A second, different complaint.')
    expect(other).not.toBe(first)
    expect(await prisma.complaint.count({ where: { contactPhone: phone } })).toBe(2)
  })

  it('files the same text again once the window has passed, and never merges two people', async () => {
    const customer = await signedInUser()
    const someoneElse = await signedInUser()
    const receivedAt = new Date()
    const file = (userId: string, at: Date) =>
      fileComplaint({
        source: 'DIRECTLY_FROM_INVESTORS',
        category: 'OTHER',
        text: complaintText,
        impersonation: false,
        userId,
        receivedAt: at,
      })
    const first = await file(customer.userId, receivedAt)
    expect((await file(customer.userId, new Date(receivedAt.getTime() + 60_000))).reference).toBe(first.reference)
    expect((await file(someoneElse.userId, receivedAt)).reference).not.toBe(first.reference)
    const later = await file(customer.userId, new Date(receivedAt.getTime() + SAME_COMPLAINT_WINDOW_MS + 1))
    expect(later.reference).not.toBe(first.reference)
  })
})

describe('the register', () => {
  it('lets one of two admins answering at once win; the other gets a clear message', async () => {
    const [first, second] = [await signedInUser({ role: 'ADMIN' }), await signedInUser({ role: 'ADMIN' })]
    const filed = await fileComplaint({
      source: 'DIRECTLY_FROM_INVESTORS',
      category: 'OTHER',
      text: complaintText,
      impersonation: false,
      contactEmail: 'twice@example.in',
      receivedAt: new Date(),
    })
    const answer = (admin: typeof first, message: string) =>
      adminComplaintRoute.action(
        routeArgs(
          formRequest(`/admin/complaints/${filed.id}`, { status: 'ANSWERED', message, version: '0' }, admin.cookie),
          { complaintId: filed.id },
        ),
      ) as Promise<{ ok: boolean; message: string } | { init: { status: number }; data: { message: string } }>
    const replies = await Promise.all([
      answer(first, 'From the first admin.'),
      answer(second, 'From the second admin.'),
    ])
    const refused = replies.filter((reply) => 'init' in reply)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ init: { status: 409 }, data: { message: COMPLAINT_CONFLICT_MESSAGE } })
    const events = await prisma.complaintEvent.findMany({ where: { complaintId: filed.id, status: 'ANSWERED' } })
    expect(events).toHaveLength(1)
    expect(await prisma.auditLog.count({ where: { subjectId: filed.id, action: 'complaint.step' } })).toBe(1)
  })

  it('records each step with who and when, and the complainant sees the answer', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const customer = await signedInUser()
    const filed = await fileComplaint({
      source: 'DIRECTLY_FROM_INVESTORS',
      category: 'CONDUCT',
      text: complaintText,
      impersonation: false,
      userId: customer.userId,
      receivedAt: new Date(),
    })
    expect(
      await takeComplaintStep({ complaintId: filed.id, adminId: admin.userId, status: 'ACKNOWLEDGED', version: 0 }),
    ).toEqual({ ok: true })
    expect(
      await takeComplaintStep({
        complaintId: filed.id,
        adminId: admin.userId,
        status: 'RESOLVED',
        message: 'We apologise.',
        version: 1,
      }),
    ).toEqual({ ok: true })
    expect(
      await takeComplaintStep({
        complaintId: filed.id,
        adminId: admin.userId,
        status: 'ANSWERED',
        message: 'x',
        version: 2,
      }),
    ).toMatchObject({
      ok: false,
      status: 400,
    })
    const events = await prisma.complaintEvent.findMany({ where: { complaintId: filed.id }, orderBy: { id: 'asc' } })
    expect(events.map((event) => [event.status, event.actorId])).toEqual([
      ['RECEIVED', null],
      ['ACKNOWLEDGED', admin.userId],
      ['RESOLVED', admin.userId],
    ])
    const list = await complaintsRoute.loader(routeArgs(getRequest('/complaints', customer.cookie)))
    expect(list.complaints[0]).toMatchObject({ status: 'Resolved', answers: [{ message: 'We apologise.' }] })
    // The customer has no e-mail address: the answer goes by SMS, ending with the ladder too.
    const { phone } = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })
    const texts = await prisma.$queryRaw<{ data: { text: string } }[]>`
      SELECT data FROM pgboss.job WHERE name = 'send-notice-sms' AND data->>'to' = ${phone}`
    const answer = texts.map((job) => job.data.text).find((text) => text.includes('We apologise.'))
    // Named by the brand with the registered name (business details), not a brand written into the code.
    expect(answer).toBe(`${brandWithRegisteredName(businessDetails)}: We apologise. ${COMPLAINT_ESCALATION_LADDER}`)
    expect(answer).toContain(businessDetails.name)
  })

  it('enters a SCORES complaint with its own reference (audited), and 404s for customers', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const reply = (await adminComplaintsRoute.action(
      routeArgs(
        formRequest(
          '/admin/complaints',
          {
            source: 'SEBI_SCORES',
            sourceReference: 'SEBIE/MH26/0001234/1',
            category: 'OTHER',
            receivedOn: indiaIsoDate(new Date()),
            text: complaintText,
          },
          admin.cookie,
        ),
      ),
    )) as Response
    expect(reply.status).toBe(302)
    const row = await prisma.complaint.findFirstOrThrow({ where: { sourceReference: 'SEBIE/MH26/0001234/1' } })
    expect(row.source).toBe('SEBI_SCORES')
    expect(await prisma.auditLog.count({ where: { subjectId: row.id, action: 'complaint.enter' } })).toBe(1)
    const customer = await signedInUser()
    await expect(
      adminComplaintsRoute.loader(routeArgs(getRequest('/admin/complaints', customer.cookie))),
    ).rejects.toMatchObject({
      init: { status: 404 },
    })
  })

  it('the daily job e-mails the compliance officer what is overdue or due within 3 days, nothing else', async () => {
    const now = new Date('2027-03-10T04:00:00Z')
    const file = (receivedAt: string, category: 'OTHER' | 'SERVICE_DEFICIENCY') =>
      fileComplaint({
        source: 'OTHER_SOURCES',
        sourceReference: `job-${randomInt(1e9)}`,
        category,
        text: complaintText,
        impersonation: false,
        receivedAt: new Date(receivedAt),
      })
    const overdue = await file('2027-02-10T05:00:00Z', 'OTHER') // due 3 March
    const dueSoon = await file('2027-02-18T05:00:00Z', 'OTHER') // due 11 March
    const later = await file('2027-03-01T05:00:00Z', 'OTHER') // due 22 March
    const resolved = await file('2027-02-10T05:00:00Z', 'OTHER')
    const admin = await signedInUser({ role: 'ADMIN' })
    await takeComplaintStep({
      complaintId: resolved.id,
      adminId: admin.userId,
      status: 'RESOLVED',
      message: 'Done.',
      version: 0,
    })

    expect(await sendComplaintsDueDigest(now)).toBeGreaterThanOrEqual(2)
    const [digest] = (await queuedEmails(businessDetails.complianceOfficer.email)).slice(-1)
    expect(digest!.body).toContain(`${overdue.reference} (Other, received): overdue since 03-03-2027`)
    expect(digest!.body).toContain(`${dueSoon.reference} (Other, received): due 11-03-2027`)
    expect(digest!.body).not.toContain(later.reference)
    expect(digest!.body).not.toContain(resolved.reference)
  })
})
