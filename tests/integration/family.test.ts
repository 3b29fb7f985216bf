import { describe, expect, it } from 'vitest'
import { OWN_PAN_AS_FAMILY_MESSAGE, TOO_MANY_FAMILY_MEMBERS_MESSAGE } from '~/domain/family'
import { FAMILY_MEMBERS_MAX } from '~/domain/family-relations'
import { panTakenMessage } from '~/domain/profile'
import * as customerRoute from '~/routes/admin/customer'
import * as setDetailsRoute from '~/routes/api.v1/users.set-details'
import * as detailsRoute from '~/routes/details'
import * as familyRoute from '~/routes/family-members'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { familyUserIds } from '~/server/account/family-members.server'
import { ASHA_RAO, uniquePan } from '../support/sample-customer'
import { formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const TAKEN_MESSAGE = panTakenMessage(businessDetails.supportEmail)

type Reply = {
  init: { status: number }
  data: { result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } }
}

/** Step 1 of /details as the page's form posts it: the details, then the family rows. */
function postDetails(
  cookie: string,
  details: Record<string, string>,
  family: { pan?: string; relation?: string }[] = [],
) {
  const fields: Record<string, string> = { ...details }
  family.forEach((row, index) => {
    fields[`family[${index}].pan`] = row.pan ?? ''
    fields[`family[${index}].relation`] = row.relation ?? ''
  })
  return detailsRoute.action(routeArgs(formRequest('/details', fields, cookie)))
}

const declared = (userId: string) =>
  prisma.familyMember.findMany({
    where: { userId },
    orderBy: { createdAt: 'asc' },
    select: { pan: true, relation: true },
  })

describe('one account per PAN', () => {
  it('gives a second account saving a taken PAN a clear message on the field, and saves nothing', async () => {
    const pan = uniquePan()
    await signedInUser({ details: { ...ASHA_RAO, pan } })
    const second = await signedInUser()
    const reply = (await postDetails(second.cookie, { ...ASHA_RAO, name: 'Ravi Rao', pan: pan.toLowerCase() }, [
      { pan: uniquePan(), relation: 'SPOUSE' },
    ])) as Reply
    expect(reply.init.status).toBe(409)
    expect(reply.data.result.error?.pan).toEqual([TAKEN_MESSAGE])
    expect(TAKEN_MESSAGE).toContain(businessDetails.supportEmail)
    expect(reply.data.result.initialValue).toMatchObject({ name: 'Ravi Rao', pan: pan.toLowerCase() })
    const saved = await prisma.user.findUniqueOrThrow({ where: { id: second.userId } })
    expect(saved).toMatchObject({ pan: null, name: null })
    expect(await declared(second.userId)).toEqual([])
  })

  it('answers the JSON API with 409 and the message, not a 500', async () => {
    const pan = uniquePan()
    await signedInUser({ details: { ...ASHA_RAO, pan } })
    const second = await signedInUser()
    const response = (await setDetailsRoute.action(
      routeArgs(jsonRequest('/api/v1/users/set-details', { ...ASHA_RAO, pan }, second.cookie)),
    )) as Response
    expect(response.status).toBe(409)
    expect(await response.json()).toEqual({ message: TAKEN_MESSAGE, errors: { pan: [TAKEN_MESSAGE] } })
    expect((await prisma.user.findUniqueOrThrow({ where: { id: second.userId } })).pan).toBeNull()
  })

  it('lets the account that holds a PAN save it again', async () => {
    const pan = uniquePan()
    const owner = await signedInUser({ details: { ...ASHA_RAO, pan } })
    const response = (await setDetailsRoute.action(
      routeArgs(jsonRequest('/api/v1/users/set-details', { ...ASHA_RAO, name: 'Asha R Rao', pan }, owner.cookie)),
    )) as Response
    expect(response.status).toBe(200)
  })

  it('of two accounts saving one PAN at the same moment, gives it to one and the message to the other', async () => {
    const pan = uniquePan()
    const [first, second] = await Promise.all([signedInUser(), signedInUser()])
    const replies = await Promise.all([
      postDetails(first.cookie, { ...ASHA_RAO, pan }),
      postDetails(second.cookie, { ...ASHA_RAO, pan }),
    ])
    const statuses = replies.map((reply) => (reply instanceof Response ? reply.status : (reply as Reply).init.status))
    expect(statuses.sort()).toEqual([302, 409])
    const refused = replies.find((reply) => !(reply instanceof Response)) as Reply
    expect(refused.data.result.error?.pan).toEqual([TAKEN_MESSAGE])
    expect(await prisma.user.count({ where: { pan } })).toBe(1)
  })

  it('the database itself refuses a second account with a PAN, and the store any PAN not upper-case', async () => {
    const pan = uniquePan()
    await signedInUser({ details: { ...ASHA_RAO, pan } })
    await expect(prisma.user.create({ data: { phone: '+919800000001', pan } })).rejects.toMatchObject({ code: 'P2002' })
    await expect(prisma.user.create({ data: { phone: '+919800000002', pan: pan.toLowerCase() } })).rejects.toThrow(
      /pan_upper_case/,
    )
  })
})

describe('family members at step 1 of /details', () => {
  it('saves the rows filled in, upper-cased, and leaves out the empty ones', async () => {
    const { userId, cookie } = await signedInUser()
    const [spouse, parent] = [uniquePan(), uniquePan()]
    const response = (await postDetails(cookie, { ...ASHA_RAO, pan: uniquePan() }, [
      { pan: spouse.toLowerCase(), relation: 'SPOUSE' },
      {},
      { pan: parent, relation: 'PARENT' },
    ])) as Response
    expect(response.status).toBe(302)
    expect(await declared(userId)).toEqual([
      { pan: spouse, relation: 'SPOUSE' },
      { pan: parent, relation: 'PARENT' },
    ])
  })

  it('says which row is wrong and saves nothing', async () => {
    const { userId, cookie } = await signedInUser()
    const reply = (await postDetails(cookie, { ...ASHA_RAO, pan: uniquePan() }, [
      { pan: uniquePan(), relation: 'CHILD' },
      { pan: 'ABCDE1234F', relation: 'CHILD' },
      { pan: uniquePan() },
    ])) as Reply
    expect(reply.init.status).toBe(400)
    expect(reply.data.result.error).toMatchObject({
      'family[1].pan': ["This is not an individual's PAN: its fourth letter must be P."],
      'family[2].relation': ['Choose how this person is related to you.'],
    })
    expect(reply.data.result.error?.['family[0].pan']).toBeUndefined()
    expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).pan).toBeNull()
    expect(await declared(userId)).toEqual([])
  })

  it("refuses the customer's own PAN as a family member", async () => {
    const { cookie } = await signedInUser()
    const pan = uniquePan()
    const reply = (await postDetails(cookie, { ...ASHA_RAO, pan }, [{ pan, relation: 'SPOUSE' }])) as Reply
    expect(reply.init.status).toBe(400)
    expect(reply.data.result.error?.['family[0].pan']).toEqual([OWN_PAN_AS_FAMILY_MESSAGE])
  })

  it(`takes at most ${FAMILY_MEMBERS_MAX}`, async () => {
    const { userId, cookie } = await signedInUser()
    const rows = Array.from({ length: FAMILY_MEMBERS_MAX + 1 }, () => ({ pan: uniquePan(), relation: 'CHILD' }))
    const reply = (await postDetails(cookie, { ...ASHA_RAO, pan: uniquePan() }, rows)) as Reply
    expect(reply.init.status).toBe(400)
    expect(reply.data.result.error?.family).toEqual([TOO_MANY_FAMILY_MEMBERS_MESSAGE])
    expect(await declared(userId)).toEqual([])
  })

  it('adds a row without JavaScript: the "Add a family member" button comes back with one more row', async () => {
    const { cookie } = await signedInUser()
    const spouse = uniquePan()
    const reply = (await detailsRoute.action(
      routeArgs(
        formRequest(
          '/details',
          {
            ...ASHA_RAO,
            'family[0].pan': spouse,
            'family[0].relation': 'SPOUSE',
            __intent__: JSON.stringify({ type: 'insert', payload: { name: 'family' } }),
          },
          cookie,
        ),
      ),
    )) as Reply
    expect(reply.init.status).toBe(200)
    expect(reply.data.result.initialValue?.family).toEqual([{ pan: spouse, relation: 'SPOUSE' }, undefined])
  })
})

describe('the family members page', () => {
  it('shows the declared PANs to a customer with a complete profile and saves a new list', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const [spouse, child] = [uniquePan(), uniquePan()]
    const save = (fields: Record<string, string>) =>
      familyRoute.action(routeArgs(formRequest('/family-members', fields, cookie)))

    const saved = (await save({ 'family[0].pan': spouse, 'family[0].relation': 'SPOUSE' })) as Response
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/family-members')
    const changed = (await save({
      'family[0].pan': spouse,
      'family[0].relation': 'SPOUSE',
      'family[1].pan': child,
      'family[1].relation': 'CHILD',
    })) as Response
    expect(changed.status).toBe(302)
    const loaded = await familyRoute.loader(routeArgs(getRequest('/family-members', cookie)))
    expect(loaded.family).toEqual([
      { pan: spouse, relation: 'SPOUSE' },
      { pan: child, relation: 'CHILD' },
    ])
    expect(loaded.reason).toBe(
      "SEBI caps the fees a research analyst may charge one family at Rs 1,51,000 a year; we count your family's payments together.",
    )
    // Removing every row declares no one.
    expect(((await save({})) as Response).status).toBe(302)
    expect(await declared(userId)).toEqual([])
  })

  it('refuses the own PAN on its row', async () => {
    const pan = uniquePan()
    const { cookie } = await signedInUser({ completeProfile: true, details: { ...ASHA_RAO, pan } })
    const reply = (await familyRoute.action(
      routeArgs(formRequest('/family-members', { 'family[0].pan': pan, 'family[0].relation': 'PARENT' }, cookie)),
    )) as Reply
    expect(reply.init.status).toBe(400)
    expect(reply.data.result.error?.['family[0].pan']).toEqual([OWN_PAN_AS_FAMILY_MESSAGE])
  })

  it('sends a customer whose profile is not complete to /details', async () => {
    const { cookie } = await signedInUser()
    await expect(familyRoute.loader(routeArgs(getRequest('/family-members', cookie)))).rejects.toMatchObject({
      status: 302,
    })
  })
})

describe('familyUserIds', () => {
  it("is the customer, the accounts whose PAN they declared and the accounts that declared theirs, and no one's family beyond", async () => {
    const pans = {
      asha: uniquePan(),
      ravi: uniquePan(),
      mira: uniquePan(),
      raviMother: uniquePan(),
      stranger: uniquePan(),
    }
    const account = async (pan: string) => (await signedInUser({ details: { ...ASHA_RAO, pan } })).userId
    const asha = await account(pans.asha)
    const ravi = await account(pans.ravi)
    const mira = await account(pans.mira)
    const raviMother = await account(pans.raviMother)
    const stranger = await account(pans.stranger)
    // Asha names her husband Ravi and a child with no account; Mira (their daughter) names Asha; Ravi names his mother.
    await prisma.familyMember.createMany({
      data: [
        { userId: asha, pan: pans.ravi, relation: 'SPOUSE' },
        { userId: asha, pan: uniquePan(), relation: 'CHILD' },
        { userId: mira, pan: pans.asha, relation: 'PARENT' },
        { userId: ravi, pan: pans.raviMother, relation: 'PARENT' },
      ],
    })
    const ids = (userId: string) => prisma.$transaction(async (tx) => (await familyUserIds(tx, userId)).sort())
    expect(await ids(asha)).toEqual([asha, ravi, mira].sort())
    // Both directions: Ravi declared no one of Asha's, yet she declared him.
    expect(await ids(ravi)).toEqual([ravi, asha, raviMother].sort())
    expect(await ids(mira)).toEqual([mira, asha].sort())
    expect(await ids(stranger)).toEqual([stranger])
    expect(await ids(crypto.randomUUID())).toEqual([])
  })
})

describe('fee cap exemption (admin)', () => {
  const post = (cookie: string | undefined, userId: string, fields: Record<string, string>) =>
    customerRoute.action(routeArgs(formRequest(`/admin/customers/${userId}`, fields, cookie), { userId }))

  it('marks a customer exempt with a reason and removes the mark, each audited; the page shows it and the family PANs', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const { userId } = await signedInUser({ completeProfile: true })
    const spouse = uniquePan()
    await prisma.familyMember.create({ data: { userId, pan: spouse, relation: 'SPOUSE' } })

    const marked = (await post(admin.cookie, userId, {
      intent: 'fee-cap-exempt',
      exemption: 'ACCREDITED_INVESTOR',
      reason: 'Accreditation certificate from NSDL, seen on 26-11-2026',
      certificate: 'AI-2026-0042',
      validUntil: '2099-03-31',
    })) as { message: string; ok: boolean }
    expect(marked).toMatchObject({
      ok: true,
      message:
        'Marked exempt from the fee cap: Accredited investor. The cap still applies until the customer opts in on their account page.',
    })
    expect(await prisma.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({
      feeCapExemption: 'ACCREDITED_INVESTOR',
      feeCapExemptionReason: 'Accreditation certificate from NSDL, seen on 26-11-2026',
      accreditationCertificate: 'AI-2026-0042',
      accreditationValidUntil: new Date('2099-03-31T00:00:00Z'),
      accreditationOptInId: null,
    })
    const page = await customerRoute.loader(
      routeArgs(getRequest(`/admin/customers/${userId}`, admin.cookie), { userId }),
    )
    expect(page.customer.feeCap).toEqual({
      exemption: 'Accredited investor',
      reason: 'Accreditation certificate from NSDL, seen on 26-11-2026',
      accreditation: {
        certificate: 'AI-2026-0042',
        validUntil: '31-03-2099',
        optedIn: null,
        standing: 'The fee cap applies: the customer has not opted in yet.',
      },
    })
    expect(page.customer.family).toEqual([{ pan: spouse, relation: 'Spouse' }])

    const removed = (await post(admin.cookie, userId, { intent: 'fee-cap-unexempt' })) as { message: string }
    expect(removed.message).toBe('The fee cap applies to this customer again.')
    expect(await prisma.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({
      feeCapExemption: null,
      feeCapExemptionReason: null,
      accreditationCertificate: null,
      accreditationValidUntil: null,
    })
    expect(
      await prisma.auditLog.findMany({
        // Views of the customer's page are audited too; this is about the exemption's own entries.
        where: { subjectId: userId, action: { startsWith: 'customer.fee-cap-exemption' } },
        orderBy: { id: 'asc' },
        select: { actorId: true, action: true, before: true, after: true },
      }),
    ).toEqual([
      {
        actorId: admin.userId,
        action: 'customer.fee-cap-exemption.set',
        before: { exemption: null, reason: null, certificate: null, validUntil: null, optInId: null },
        after: {
          exemption: 'ACCREDITED_INVESTOR',
          reason: 'Accreditation certificate from NSDL, seen on 26-11-2026',
          certificate: 'AI-2026-0042',
          validUntil: '2099-03-31',
          optInId: null,
        },
      },
      {
        actorId: admin.userId,
        action: 'customer.fee-cap-exemption.remove',
        before: {
          exemption: 'ACCREDITED_INVESTOR',
          reason: 'Accreditation certificate from NSDL, seen on 26-11-2026',
          certificate: 'AI-2026-0042',
          validUntil: '2099-03-31',
          optInId: null,
        },
        after: { exemption: null, reason: null, certificate: null, validUntil: null, optInId: null },
      },
    ])
  })

  it('needs a reason, and only an admin may mark anyone', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const customer = await signedInUser({ completeProfile: true })
    const noReason = (await post(admin.cookie, customer.userId, {
      intent: 'fee-cap-exempt',
      exemption: 'NON_INDIVIDUAL',
      reason: '',
    })) as Reply
    expect(noReason.init.status).toBe(400)
    expect(noReason.data.result.error?.reason).toBeTruthy()
    // An accredited investor's mark needs the certificate and its last valid day, one not yet past.
    const noCertificate = (await post(admin.cookie, customer.userId, {
      intent: 'fee-cap-exempt',
      exemption: 'ACCREDITED_INVESTOR',
      reason: 'Certificate seen',
    })) as Reply
    expect(noCertificate.init.status).toBe(400)
    expect(noCertificate.data.result.error).toMatchObject({
      certificate: ["Give the accreditation certificate's number."],
      validUntil: ["Give the certificate's last valid day."],
    })
    const expired = (await post(admin.cookie, customer.userId, {
      intent: 'fee-cap-exempt',
      exemption: 'ACCREDITED_INVESTOR',
      reason: 'Certificate seen',
      certificate: 'AI-2020-0001',
      validUntil: '2021-03-31',
    })) as Reply
    expect(expired.init.status).toBe(400)
    expect(expired.data.result.error?.validUntil).toEqual([
      "The certificate's last valid day, 31-03-2021, has passed: the fee cap applies.",
    ])
    await expect(
      post(customer.cookie, customer.userId, { intent: 'fee-cap-exempt', exemption: 'NON_INDIVIDUAL', reason: 'Me' }),
    ).rejects.toMatchObject({ init: { status: 404 } })
    expect((await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })).feeCapExemption).toBeNull()
    expect(
      await prisma.auditLog.count({
        where: { subjectId: customer.userId, action: { startsWith: 'customer.fee-cap-exemption' } },
      }),
    ).toBe(0)
  })
})
