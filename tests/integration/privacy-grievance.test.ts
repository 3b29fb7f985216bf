import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import * as newComplaintRoute from '~/routes/complaints.new'
import { COMPLAINT_CATEGORIES, complaintDueOn } from '~/domain/complaints'
import { indiaIsoDate } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

afterAll(() => stopJobs())

// A privacy grievance (docs/regulatory.md, The customer's data; DPDP Act s.13): the complaint form's "Privacy /
// personal data" category, with the reference and answer-by date every complaint gets.

function filing(cookie: string) {
  const form = new FormData()
  form.append('intent', 'file')
  form.append('category', 'PRIVACY')
  form.append('text', 'Please tell me which companies you have shared my PAN with.')
  form.append('attachment', new Blob([]), '')
  const request = new Request('http://localhost/complaints/new', {
    method: 'POST',
    body: form,
    headers: { Cookie: cookie },
  })
  return newComplaintRoute.action(
    routeArgs(request, {}, { clientIp: `10.9.${randomInt(256)}.${randomInt(256)}`, cspNonce: '' }),
  )
}

describe('a privacy grievance', () => {
  it('is a category of the complaint form', () => {
    expect(COMPLAINT_CATEGORIES).toContainEqual({ value: 'PRIVACY', label: 'Privacy / personal data' })
  })

  it('is filed by a customer with a reference and an answer-by date 21 days on', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const filed = (await filing(customer.cookie)) as Response
    expect(filed.status).toBe(302)
    const location = filed.headers.get('Location')!
    const reference = location.split('=')[1]!
    expect(reference).toMatch(/^CMP-\d{4}-\d{6}$/)
    const row = await prisma.complaint.findUniqueOrThrow({ where: { reference } })
    expect(row).toMatchObject({ category: 'PRIVACY', userId: customer.userId, status: 'RECEIVED' })
    const receivedOn = indiaIsoDate(row.receivedAt)
    expect(row.dueOn.toISOString().slice(0, 10)).toBe(complaintDueOn('PRIVACY', receivedOn, []))
    expect(Date.parse(complaintDueOn('PRIVACY', receivedOn, [])) - Date.parse(receivedOn)).toBe(21 * 86_400_000)
    const page = await newComplaintRoute.loader(routeArgs(getRequest(location, customer.cookie)))
    expect(page.filed).toMatchObject({ reference })
  })
})
