import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { formatRupees } from '~/domain/money'
import { AdminEndSubscriptionFormSchema } from '~/domain/refunds'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { redirectWithFlash } from '~/server/http/flash.server'
import { readForm } from '~/server/http/form-data.server'
import { endSubscription, NothingToEndError } from '~/server/payments/refunds/end-subscription.server'
import type { Route } from './+types/customer-end-subscription'

/** The admin ends a customer's subscription with a reason (audited); the answer is a flash on the customer page. */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  if (!isUuid(params.userId)) throw data('Not Found', { status: 404 })
  const back = `/admin/customers/${params.userId}`
  const submission = parseWithZod(await readForm(request), { schema: AdminEndSubscriptionFormSchema })
  if (submission.status !== 'success') {
    const errors = Object.values(submission.reply().error ?? {}).flat()
    return redirectWithFlash(back, { tone: 'error', message: `Not ended: ${errors.join(' ') || 'check the form'}` })
  }
  try {
    const ended = await endSubscription({
      userId: params.userId,
      serviceId: submission.value.serviceId,
      by: { kind: 'admin', adminId: admin.id },
      reason: 'ADMIN_ENDED',
      note: submission.value.reason,
      now: new Date(),
    })
    const total = ended.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0)
    return redirectWithFlash(back, {
      tone: 'success',
      message:
        total === 0
          ? `Ended ${ended.serviceName}; no refund is due.`
          : `Ended ${ended.serviceName}; Rs. ${formatRupees(total)} is being refunded (see Refunds).`,
    })
  } catch (error) {
    if (error instanceof NothingToEndError)
      return redirectWithFlash(back, { tone: 'info', message: 'That subscription has already ended.' })
    throw error
  }
}
