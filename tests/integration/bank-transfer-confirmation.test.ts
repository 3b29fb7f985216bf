import { afterAll, describe, expect, it, vi } from 'vitest'
import { STATEMENT_PAYER_NAME_MESSAGE, STATEMENT_UTR_MESSAGE } from '~/domain/admin'
import { action as paymentsAction, loader as paymentsLoader } from '~/routes/admin/payments'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { ASHA_RAO, uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// Confirming a bank transfer (docs/payments.md, "Confirming a bank transfer"): the bank statement's
// UTR and payer name are required, a payer name unlike the KYC name needs a reason, and the audit
// entry and the payment keep all of it.

afterAll(() => stopJobs())

type Handler = (args: { request: Request; params: object; context: object }) => Promise<unknown>
type Answer = {
  data: {
    outcome: { ok: boolean; message: string } | null
    confirming?: boolean
    result: { error?: Record<string, string[]> }
  }
  init: { status: number } | null
}

/** A customer (KYC name Asha Rao) with a bank transfer claim, and a signed-in admin. */
async function claimAndAdmin() {
  const { userId } = await signedInUser({ role: 'CUSTOMER', details: { ...ASHA_RAO, pan: uniquePan() } })
  const service = await createService('Equity', 299_900, 30)
  const { paymentId } = await createManualPayment(userId, [service.id], {
    utr: 'CUSTOMERUTR1',
    payerAccountName: 'Asha',
  })
  const admin = await signedInUser({ role: 'ADMIN', details: { ...ASHA_RAO, pan: uniquePan() } })
  const confirm = async (fields: Record<string, string>) =>
    (await (paymentsAction as Handler)(
      routeArgs(
        formRequest('/admin/payments', { intent: 'confirm', paymentId, confirmed: 'yes', ...fields }, admin.cookie),
      ),
    )) as Answer
  return { paymentId, adminId: admin.userId, adminCookie: admin.cookie, confirm }
}

async function nothingPaid(paymentId: string) {
  expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
    status: 'PENDING_VERIFICATION',
    bankUtr: null,
    bankPayerName: null,
    payerNameCheck: null,
  })
  expect(await prisma.subscription.count({ where: { paymentId } })).toBe(0)
  expect(await prisma.auditLog.count({ where: { subjectId: paymentId } })).toBe(0)
}

const quiet = () => {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  vi.spyOn(console, 'log').mockImplementation(() => {})
}

describe('confirming a bank transfer', () => {
  it('is refused without the UTR and the payer name of the bank statement, on those fields, and pays nothing', async () => {
    const { paymentId, confirm } = await claimAndAdmin()

    const answer = await confirm({ bankUtr: '', bankPayerName: '' })

    expect(answer.init?.status).toBe(400)
    expect(answer.data.confirming).toBe(true)
    expect(answer.data.result.error).toMatchObject({
      bankUtr: [STATEMENT_UTR_MESSAGE],
      bankPayerName: [STATEMENT_PAYER_NAME_MESSAGE],
    })
    await nothingPaid(paymentId)
  })

  it('is refused when the payer name is not the KYC name and no reason is given, on the reason field', async () => {
    const { paymentId, confirm } = await claimAndAdmin()

    const answer = await confirm({ bankUtr: 'HDFC0000999888', bankPayerName: 'PRIYA MEHTA' })

    expect(answer.init?.status).toBe(400)
    expect(answer.data.confirming).toBe(true)
    expect(answer.data.result.error?.nameMismatchReason).toEqual([
      expect.stringContaining('The payer\'s name "PRIYA MEHTA" does not match the KYC name'),
    ])
    await nothingPaid(paymentId)
  })

  it('pays a matching name and keeps the statement on the payment and in the audit entry', async () => {
    quiet()
    const { paymentId, adminId, confirm } = await claimAndAdmin()

    const answer = await confirm({ bankUtr: 'hdfc 0000 999 888', bankPayerName: 'MS. RAO ASHA' })

    expect(answer.init?.status).toBe(200)
    expect(answer.data.outcome?.ok).toBe(true)
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'PAID',
      // The customer's claim stays as they gave it.
      utr: 'CUSTOMERUTR1',
      payerAccountName: 'Asha',
      bankUtr: 'HDFC0000999888',
      bankPayerName: 'MS. RAO ASHA',
      payerNameCheck: 'MATCH',
      payerNameMismatchReason: null,
    })
    const [audit] = await prisma.auditLog.findMany({ where: { subjectId: paymentId } })
    expect(audit).toMatchObject({ actorId: adminId, action: 'payment.confirm' })
    expect(audit!.after).toMatchObject({
      bankUtr: 'HDFC0000999888',
      bankPayerName: 'MS. RAO ASHA',
      payerNameCheck: 'MATCH',
      payerNameMismatchReason: null,
    })
  })

  it('pays a mismatched name with a reason, audited, and shows it on the payments page', async () => {
    quiet()
    const { paymentId, adminCookie, confirm } = await claimAndAdmin()
    const reason = 'Paid from her husband Ravi Mehta’s account; he confirmed it by phone.'

    const answer = await confirm({ bankUtr: 'ICIC000111222', bankPayerName: 'RAVI MEHTA', nameMismatchReason: reason })

    expect(answer.init?.status).toBe(200)
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'PAID',
      bankPayerName: 'RAVI MEHTA',
      payerNameCheck: 'MISMATCH',
      payerNameMismatchReason: reason,
    })
    const [audit] = await prisma.auditLog.findMany({ where: { subjectId: paymentId } })
    expect(audit!.after).toMatchObject({ payerNameCheck: 'MISMATCH', payerNameMismatchReason: reason })

    const page = (await (paymentsLoader as Handler)(
      routeArgs(getRequest('/admin/payments?method=MANUAL', adminCookie)),
    )) as {
      payments: {
        id: string
        bankUtr: string | null
        bankPayerName: string | null
        payerNameCheck: string | null
        payerNameMismatchReason: string | null
      }[]
    }
    expect(page.payments.find((payment) => payment.id === paymentId)).toMatchObject({
      bankUtr: 'ICIC000111222',
      bankPayerName: 'RAVI MEHTA',
      payerNameCheck: 'Does not match the KYC name',
      payerNameMismatchReason: reason,
    })
  })

  it('cannot store a mismatch without its reason, whoever writes the row', async () => {
    const { paymentId } = await claimAndAdmin()
    await expect(
      prisma.payment.update({ where: { id: paymentId }, data: { payerNameCheck: 'MISMATCH' } }),
    ).rejects.toThrow(/payments_payer_name_mismatch_reason/)
  })
})
