import { afterAll, describe, expect, it, vi } from 'vitest'
import { action as paymentsAction, loader as paymentsLoader } from '~/routes/admin/payments'
import { loader as auditLoader } from '~/routes/admin/audit'
import { loader as indexLoader } from '~/routes/admin/index'
import { loader as layoutLoader } from '~/routes/admin/layout'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { ASHA_RAO, uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

afterAll(() => stopJobs())

type Handler = (args: { request: Request; params: object; context: object }) => Promise<unknown>

const call = (handler: Handler, request: Request) => handler(routeArgs(request))

async function claim() {
  const { userId } = await signedInUser({ role: 'CUSTOMER', details: { ...ASHA_RAO, pan: uniquePan() } })
  const service = await createService('Equity', 299_900, 30)
  return (await createManualPayment(userId, [service.id], { utr: 'UTR42' })).paymentId
}

const loaders: [string, Handler, string][] = [
  ['layout', layoutLoader as Handler, '/admin/payments'],
  ['index', indexLoader as Handler, '/admin'],
  ['payments', paymentsLoader as Handler, '/admin/payments'],
  ['audit', auditLoader as Handler, '/admin/audit'],
]

describe('the admin console is invisible to anyone but an ADMIN', () => {
  it.each(loaders)('the %s loader answers 404 without a session and for a customer', async (_name, loader, path) => {
    const { cookie } = await signedInUser({ role: 'CUSTOMER', details: { ...ASHA_RAO, pan: uniquePan() } })
    await expect(call(loader, getRequest(path))).rejects.toMatchObject({ data: 'Not Found', init: { status: 404 } })
    await expect(call(loader, getRequest(path, cookie))).rejects.toMatchObject({
      data: 'Not Found',
      init: { status: 404 },
    })
  })

  it.each([
    ['confirm', {}],
    ['reject', { reason: 'No transfer found' }],
  ])(
    'the payments action (%s) answers 404 without a session and for a customer, and changes nothing',
    async (intent, extra) => {
      const paymentId = await claim()
      const { cookie } = await signedInUser({ role: 'CUSTOMER', details: { ...ASHA_RAO, pan: uniquePan() } })
      const fields = { intent, paymentId, ...extra }
      await expect(call(paymentsAction as Handler, formRequest('/admin/payments', fields))).rejects.toMatchObject({
        init: { status: 404 },
      })
      await expect(
        call(paymentsAction as Handler, formRequest('/admin/payments', fields, cookie)),
      ).rejects.toMatchObject({
        init: { status: 404 },
      })
      expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
        status: 'PENDING_VERIFICATION',
      })
      expect(await prisma.auditLog.count({ where: { subjectId: paymentId } })).toBe(0)
    },
  )

  it('lets an admin in: /admin redirects to the payments page, which lists the pending claim', async () => {
    const paymentId = await claim()
    const { cookie } = await signedInUser({ role: 'ADMIN', details: { ...ASHA_RAO, pan: uniquePan() } })
    const redirect = (await call(indexLoader as Handler, getRequest('/admin', cookie))) as Response
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('Location')).toBe('/admin/payments')
    const page = (await call(
      paymentsLoader as Handler,
      getRequest('/admin/payments?status=PAID&from=bad', cookie),
    )) as {
      pending: { id: string; utr: string | null; timeLeft: string }[]
      filter: object
    }
    expect(page.pending.find((payment) => payment.id === paymentId)).toMatchObject({
      utr: 'UTR42',
      timeLeft: '6 days 23 hours',
    })
    expect(page.filter).toEqual({})
    expect(await call(auditLoader as Handler, getRequest('/admin/audit', cookie))).toHaveProperty('entries')
  })
})

describe('the payments action for an admin', () => {
  it('confirms a claim and writes the audit entry with the admin as actor', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const paymentId = await claim()
    const { userId, cookie } = await signedInUser({ role: 'ADMIN', details: { ...ASHA_RAO, pan: uniquePan() } })
    const result = (await call(
      paymentsAction as Handler,
      formRequest(
        '/admin/payments',
        { intent: 'confirm', paymentId, confirmed: 'yes', bankUtr: 'UTR42424242', bankPayerName: ASHA_RAO.name },
        cookie,
      ),
    )) as {
      data: { outcome: { ok: boolean } }
      init: { status: number }
    }
    expect(result.init.status).toBe(200)
    expect(result.data.outcome.ok).toBe(true)
    expect(
      await prisma.auditLog.findMany({ where: { subjectId: paymentId }, select: { actorId: true, action: true } }),
    ).toEqual([{ actorId: userId, action: 'payment.confirm' }])
  })

  it('asks "are you sure?" before confirming: a first Confirm changes nothing', async () => {
    const paymentId = await claim()
    const { cookie } = await signedInUser({ role: 'ADMIN', details: { ...ASHA_RAO, pan: uniquePan() } })
    const result = (await call(
      paymentsAction as Handler,
      formRequest('/admin/payments', { intent: 'confirm', paymentId }, cookie),
    )) as {
      data: { paymentId: string; intent: string; outcome: unknown; confirming: boolean }
      init: { status: number } | null
    }
    expect(result.init?.status ?? 200).toBe(200)
    expect(result.data).toMatchObject({ paymentId, intent: 'confirm', outcome: null, confirming: true })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'PENDING_VERIFICATION',
    })
    expect(await prisma.auditLog.count({ where: { subjectId: paymentId } })).toBe(0)
  })

  it('asks for a reason before rejecting, keeping the claim pending', async () => {
    const paymentId = await claim()
    const { cookie } = await signedInUser({ role: 'ADMIN', details: { ...ASHA_RAO, pan: uniquePan() } })
    const result = (await call(
      paymentsAction as Handler,
      formRequest('/admin/payments', { intent: 'reject', paymentId, reason: ' ' }, cookie),
    )) as {
      data: { paymentId: string; result: { error: Record<string, string[]> } }
      init: { status: number }
    }
    expect(result.init.status).toBe(400)
    expect(result.data.paymentId).toBe(paymentId)
    expect(result.data.result.error.reason).toEqual([
      'Give the reason for rejecting this payment; the customer sees it.',
    ])
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'PENDING_VERIFICATION',
    })
  })

  it('rejects with a reason, and answers 409 to a second reject', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {})
    const paymentId = await claim()
    const { cookie } = await signedInUser({ role: 'ADMIN', details: { ...ASHA_RAO, pan: uniquePan() } })
    const fields = { intent: 'reject', paymentId, reason: 'No transfer with this UTR' }
    const first = (await call(paymentsAction as Handler, formRequest('/admin/payments', fields, cookie))) as {
      init: { status: number }
    }
    const second = (await call(paymentsAction as Handler, formRequest('/admin/payments', fields, cookie))) as {
      init: { status: number }
    }
    expect([first.init.status, second.init.status]).toEqual([200, 409])
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'REJECTED',
      rejectedReason: 'No transfer with this UTR',
    })
    expect(await prisma.auditLog.count({ where: { subjectId: paymentId, action: 'payment.reject' } })).toBe(1)
  })
})
