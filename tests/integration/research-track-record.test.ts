import { describe, expect, it, vi } from 'vitest'
import * as adminFollowUpRoute from '~/routes/admin/research-follow-up'
import * as adminNewRoute from '~/routes/admin/research-new'
import * as trackRecordRoute from '~/routes/admin/research-track-record'
import * as trackRecordCsvRoute from '~/routes/admin/research-track-record-csv'
import * as adminItemRoute from '~/routes/admin/research-item'
import { RATING_DEFINITIONS } from '~/domain/research-calls'
import { prisma } from '~/server/db.server'
import { emailContext } from '~/server/messaging/customer-notices.server'
import { researchEmail } from '~/server/research/deliveries.server'
import { researchItemSelect } from '~/server/research/items.server'
import { publishResearchItem, verifyStoredResearchItem } from '~/server/research/publishing.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'
import { callForm as hdfcCallForm, DISCLOSURE_ANSWERS, idFrom, thrownStatus } from '../support/research-forms'

/** The shared call form at round prices: a buy at 1,000, target 1,100, stop-loss 950. */
const callForm = (serviceId: string, overrides: Record<string, string> = {}) =>
  hdfcCallForm(serviceId, { entryLow: '1000', targets: '1100', stopLoss: '950', ...overrides })

type Admin = { userId: string; cookie: string }

let clock = Date.UTC(2026, 10, 2, 4, 0)
const nextMinute = () => new Date((clock += 60_000))

async function publishedCall(admin: Admin, serviceId: string, overrides: Record<string, string> = {}) {
  const created = (await adminNewRoute.action(
    routeArgs(formRequest('/admin/research/new', callForm(serviceId, overrides), admin.cookie)),
  )) as Response
  expect(created.status).toBe(302)
  const itemId = idFrom(created)
  expect(await publishResearchItem(itemId, admin.userId, nextMinute())).toMatchObject({ ok: true })
  return itemId
}

async function publishedFollowUp(admin: Admin, originalId: string, fields: Record<string, string>) {
  const created = (await adminFollowUpRoute.action(
    routeArgs(
      formRequest(
        `/admin/research/${originalId}/follow-up`,
        { body: 'What happened.', ...DISCLOSURE_ANSWERS, ...fields },
        admin.cookie,
      ),
      { itemId: originalId },
    ),
  )) as Response
  expect(created.status).toBe(302)
  const itemId = idFrom(created)
  expect(await publishResearchItem(itemId, admin.userId, nextMinute())).toMatchObject({ ok: true })
  return itemId
}

describe('the track record', () => {
  it("lists a service's published calls with their outcomes and returns, sums them up, and exports them", async () => {
    const service = await createService('Equity', 100_000, 30)
    const other = await createService('Options', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })

    const open = await publishedCall(admin, service.id, { title: 'Buy Infosys', symbol: 'INFY' })
    const hit = await publishedCall(admin, service.id, { title: 'Buy TCS', symbol: 'TCS' })
    await publishedFollowUp(admin, hit, { kind: 'TARGET_HIT', price: '1100' })
    const stopped = await publishedCall(admin, service.id, {
      title: 'Sell Wipro',
      symbol: 'WIPRO',
      action: 'SELL',
      entryLow: '1000',
      entryHigh: '1020',
      targets: '900',
      stopLoss: '1050',
    })
    await publishedFollowUp(admin, stopped, { kind: 'STOP_LOSS_HIT', price: '1060.50' })
    const withdrawn = await publishedCall(admin, service.id, { title: '=HYPERLINK("x") formula', symbol: 'ITC' })
    await publishedFollowUp(admin, withdrawn, { kind: 'WITHDRAWAL' })
    // A follow-up still a draft changes nothing; a draft call and another service's call are not listed.
    const drafted = await publishedCall(admin, service.id, { title: 'Buy Axis', symbol: 'AXISBANK' })
    await adminFollowUpRoute.action(
      routeArgs(
        formRequest(
          `/admin/research/${drafted}/follow-up`,
          { kind: 'CLOSED', price: '1200', body: 'Not yet.', ...DISCLOSURE_ANSWERS },
          admin.cookie,
        ),
        { itemId: drafted },
      ),
    )
    await adminNewRoute.action(
      routeArgs(formRequest('/admin/research/new', callForm(service.id, { title: 'Draft call' }), admin.cookie)),
    )
    await publishedCall(admin, other.id, { title: 'Other service call' })

    const page = await trackRecordRoute.loader(
      routeArgs(getRequest(`/admin/research/track-record?service=${service.id}`, admin.cookie)),
    )
    expect(page.problem).toBeNull()
    const record = page.record!
    expect(record.calls.map((call) => call.title)).toEqual([
      'Buy Axis',
      '=HYPERLINK("x") formula',
      'Sell Wipro',
      'Buy TCS',
      'Buy Infosys',
    ])
    const byId = new Map(record.calls.map((call) => [call.id, call]))
    expect(byId.get(open)).toMatchObject({ outcome: 'Open', returnWords: '', instrument: 'NSE: INFY', action: 'Buy' })
    expect(byId.get(hit)).toMatchObject({ outcome: 'Target hit', exit: 'Rs. 1,100', returnWords: '+10.00%' })
    // A sell from the range 1,000 to 1,020 (midpoint 1,010) stopped out at 1,060.50: -5.00%.
    expect(byId.get(stopped)).toMatchObject({
      outcome: 'Stop-loss hit',
      entry: 'Rs. 1,000 to Rs. 1,020',
      exit: 'Rs. 1,060.50',
      returnWords: '-5.00%',
    })
    expect(byId.get(withdrawn)).toMatchObject({ outcome: 'Withdrawn', exit: '', returnWords: '' })
    expect(byId.get(drafted)).toMatchObject({ outcome: 'Open' })
    expect(record.summary).toMatchObject({
      calls: 5,
      open: 2,
      closed: 3,
      targetHit: 1,
      withdrawn: 1,
      hitRate: '33.33%',
      averageReturn: '+2.50%',
    })

    const csv = await trackRecordCsvRoute.loader(
      routeArgs(getRequest(`/admin/research/track-record.csv?service=${service.id}`, admin.cookie)),
    )
    expect(csv.status).toBe(200)
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="track-record-equity[a-z0-9-]*\.csv"$/,
    )
    const text = await csv.text()
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines).toHaveLength(6)
    expect(lines[0]).toMatch(/^Call id,Published \(IST\),Title,/)
    // A title that starts like a formula is written as text.
    expect(text).toContain(`${withdrawn},`)
    expect(text).toContain(`"'=HYPERLINK(""x"") formula"`)
    const stoppedLine = lines.find((line) => line.startsWith(stopped))!
    expect(stoppedLine).toContain(',Sell,1000.00,1020.00,900.00,1050.00,no,3 months,Stop-loss hit,0,1060.50,')
    expect(stoppedLine).toMatch(/,-500,-5,yes$/)
  })

  it('is for the admin only: 404 to a customer and to no one signed in, the CSV too', async () => {
    const service = await createService('Equity', 100_000, 30)
    const customer = await signedInUser({ completeProfile: true })
    const path = `/admin/research/track-record?service=${service.id}`
    expect(await thrownStatus(trackRecordRoute.loader(routeArgs(getRequest(path, customer.cookie))))).toBe(404)
    expect(await thrownStatus(trackRecordRoute.loader(routeArgs(getRequest(path))))).toBe(404)
    const csvPath = `/admin/research/track-record.csv?service=${service.id}`
    expect(await thrownStatus(trackRecordCsvRoute.loader(routeArgs(getRequest(csvPath, customer.cookie))))).toBe(404)
  })

  it('says so for a service that does not read or does not exist, and the CSV answers 400', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    for (const service of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const page = await trackRecordRoute.loader(
        routeArgs(getRequest(`/admin/research/track-record?service=${service}`, admin.cookie)),
      )
      expect(page).toMatchObject({ record: null, problem: 'There is no such service: choose one from the list.' })
      const csv = await trackRecordCsvRoute.loader(
        routeArgs(getRequest(`/admin/research/track-record.csv?service=${service}`, admin.cookie)),
      )
      expect(csv.status).toBe(400)
    }
    const empty = await trackRecordRoute.loader(routeArgs(getRequest('/admin/research/track-record', admin.cookie)))
    expect(empty).toMatchObject({ record: null, problem: null })
  })

  it('reads every call and its follow-ups in one statement', async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    for (const symbol of ['A1', 'B2', 'C3']) {
      const id = await publishedCall(admin, service.id, { symbol })
      await publishedFollowUp(admin, id, { kind: 'CLOSED', price: '1010' })
    }
    // Three calls with a follow-up each: still one raw statement, and no query per call.
    const raw = vi.spyOn(prisma, '$queryRaw')
    const findMany = vi.spyOn(prisma.researchItem, 'findMany')
    try {
      const page = await trackRecordRoute.loader(
        routeArgs(getRequest(`/admin/research/track-record?service=${service.id}`, admin.cookie)),
      )
      expect(page.record?.summary.closed).toBe(3)
      expect(raw).toHaveBeenCalledTimes(1)
      expect(findMany).not.toHaveBeenCalled()
    } finally {
      raw.mockRestore()
      findMany.mockRestore()
    }
  })
})

describe('rating definitions', () => {
  it("are printed on a call's page and in its e-mail, outside its signed content", async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const callId = await publishedCall(admin, service.id)
    const shown = await adminItemRoute.loader(
      routeArgs(getRequest(`/admin/research/${callId}`, admin.cookie), { itemId: callId }),
    )
    expect(shown.item.ratingDefinitions).toEqual([
      { label: 'Buy', value: RATING_DEFINITIONS.BUY },
      { label: 'Sell', value: RATING_DEFINITIONS.SELL },
      { label: 'Hold', value: RATING_DEFINITIONS.HOLD },
      { label: 'Exit', value: RATING_DEFINITIONS.EXIT },
    ])
    const row = await prisma.researchItem.findUniqueOrThrow({ where: { id: callId }, select: researchItemSelect })
    const email = researchEmail(row, await emailContext())('Asha')
    expect(email.body).toContain(`Sell: ${RATING_DEFINITIONS.SELL}`)
    expect(email.body).toContain('What our ratings mean:')
    expect(await verifyStoredResearchItem(callId)).toBe('verified')

    const report = (await adminNewRoute.action(
      routeArgs(
        formRequest(
          '/admin/research/new',
          { title: 'Banks', body: 'Margins hold.', serviceIds: service.id, ...DISCLOSURE_ANSWERS },
          admin.cookie,
        ),
      ),
    )) as Response
    const reportId = idFrom(report)
    await publishResearchItem(reportId, admin.userId, nextMinute())
    const reportPage = await adminItemRoute.loader(
      routeArgs(getRequest(`/admin/research/${reportId}`, admin.cookie), { itemId: reportId }),
    )
    expect(reportPage.item.ratingDefinitions).toEqual([])
  })
})
