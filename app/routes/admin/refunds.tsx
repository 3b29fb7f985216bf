import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, repliedField, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import { readPageRequest } from '~/domain/keyset'
import { formatRupees } from '~/domain/money'
import { MarkRefundPaidFormSchema } from '~/domain/refunds'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { readForm } from '~/server/http/form-data.server'
import {
  markRefundPaid,
  refundQueue,
  retryRefund,
  type RefundQueueRow,
} from '~/server/payments/refunds/refund-queue.server'
import type { Route } from './+types/refunds'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Refunds | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const searchParams = new URL(request.url).searchParams
  // The cursor belongs to one section (?status=); the other sections show their first page.
  const paged = SECTIONS.find((section) => section.status === searchParams.get('status'))?.status
  const { page, invalid } = paged ? readPageRequest(searchParams, 'uuid') : { page: null, invalid: false }
  const sections = await Promise.all(
    SECTIONS.map(async (section) => ({
      ...section,
      ...(await refundQueue(section.status, section.status === paged ? page : null)),
    })),
  )
  return { sections, invalidCursor: invalid }
}

/** Mark a bank-transfer refund paid (with its bank reference), or retry a failed gateway refund; both audited. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  const refundId = String(formData.get('refundId') ?? '')
  if (formData.get('intent') === 'retry') {
    const retried = isUuid(refundId) && (await retryRefund({ refundId, adminId: admin.id, now: new Date() }))
    return { refundId, message: retried ? 'Queued again.' : 'This refund had not failed.', ok: retried }
  }
  const submission = parseWithZod(formData, { schema: MarkRefundPaidFormSchema })
  if (submission.status !== 'success') return data({ refundId, result: submission.reply(), ok: false }, 400)
  const paid = await markRefundPaid({ ...submission.value, adminId: admin.id, now: new Date() })
  return { refundId, message: paid ? 'Marked paid.' : 'This refund was not due.', ok: paid }
}

const SECTIONS = [
  { status: 'DUE', title: 'Due: bank transfers to make' },
  { status: 'FAILED', title: 'Failed at the gateway' },
  { status: 'PENDING', title: 'In progress at the gateway' },
  { status: 'PROCESSED', title: 'Done' },
] as const

const REASONS: Record<RefundQueueRow['reason'], string> = {
  CUSTOMER_ENDED: 'ended by the customer',
  ADMIN_ENDED: 'ended by an admin',
  SERVICES_STOPPED: 'services stopped',
  ADVANCE_LIMIT: 'beyond the one-year advance limit',
  ACCOUNT_CLOSED: 'paid after the account was closed',
  MANDATE_CHARGE_REFUSED: 'automatic renewal charge not applied',
  GATEWAY_METHOD_REFUSED: 'paid by a method we do not take',
}

export default function AdminRefunds({ loaderData, actionData }: Route.ComponentProps) {
  const { sections, invalidCursor } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Refunds</h1>
      <p className="mt-2">
        <Link to="/admin/stop-services" className="underline">
          Stop all services
        </Link>
      </p>
      <InvalidCursorNotice invalid={invalidCursor} />
      {sections.map(({ status, title, rows, next, previous }) => {
        const headingId = `refunds-${status.toLowerCase()}`
        return (
          <section key={status} aria-labelledby={headingId} className="mt-6">
            <h2 id={headingId} className="text-xl font-semibold">
              {title} ({next || previous ? `${rows.length} on this page` : rows.length})
            </h2>
            {rows.length === 0 ? (
              <p className="mt-2">None.</p>
            ) : (
              <ul className="mt-2 space-y-3">
                {rows.map((refund) => (
                  <li key={refund.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
                    <RefundLine refund={refund} />
                    {actionData?.refundId === refund.id && 'message' in actionData ? (
                      <FormMessage tone={actionData.ok ? 'success' : 'error'}>{actionData.message}</FormMessage>
                    ) : null}
                    {status === 'DUE' ? (
                      <MarkPaidForm
                        refund={refund}
                        answer={actionData?.refundId === refund.id ? actionData : undefined}
                      />
                    ) : null}
                    {status === 'FAILED' ? <RetryForm refund={refund} /> : null}
                  </li>
                ))}
              </ul>
            )}
            <Pager label={`Pages of ${title}`} next={next} previous={previous} params={{ status }} />
          </section>
        )
      })}
    </>
  )
}

function RefundLine({ refund }: { refund: RefundQueueRow }) {
  return (
    <>
      <p className="font-medium">
        Rs. {formatRupees(refund.amountPaise)} to{' '}
        <Link to={`/admin/customers/${refund.customer.id}`} className="underline">
          {refund.customer.name ?? refund.customer.phone}
        </Link>{' '}
        for {refund.serviceName} ({REASONS[refund.reason]})
      </p>
      <p className="text-sm">
        Created {refund.createdOn}
        {refund.processedOn ? `; paid ${refund.processedOn}` : ''}
        {refund.gatewayRefundId ? `; gateway refund ${refund.gatewayRefundId}` : ''}
        {refund.bankReference ? `; bank reference ${refund.bankReference}` : ''}
        {refund.attempts > 0 ? `; ${refund.attempts} gateway attempts` : ''}
      </p>
      {refund.payingAccount ? (
        <p className="text-sm">
          Pay back to the account the transfer came from: {refund.payingAccount.accountName}, the transfer with
          reference {refund.payingAccount.utr} (confirmed by the customer)
        </p>
      ) : refund.payee ? (
        <p className="text-sm">
          Pay to {refund.payee.accountName}, account {refund.payee.accountNumber}, IFSC {refund.payee.ifsc}
        </p>
      ) : refund.status === 'DUE' ? (
        <p className="text-sm">No account given: ask the customer for the account to pay.</p>
      ) : null}
      {refund.lastError ? <p className="text-sm">Last error: {refund.lastError}</p> : null}
    </>
  )
}

function MarkPaidForm({ refund, answer }: { refund: RefundQueueRow; answer: Route.ComponentProps['actionData'] }) {
  const pending = useIsPending({ fields: { refundId: refund.id } })
  const typed = repliedField(answer && 'result' in answer ? answer.result : undefined, 'bankReference')
  return (
    <Form method="post" preventScrollReset className="mt-2 flex flex-wrap items-end gap-3">
      <input type="hidden" name="refundId" value={refund.id} />
      <Field
        label="Bank reference (UTR) of the transfer"
        errors={typed.errors}
        inputProps={{
          id: `bank-reference-${refund.id}`,
          name: 'bankReference',
          maxLength: 40,
          autoComplete: 'off',
          defaultValue: typed.defaultValue ?? '',
        }}
      />
      <StatusButton
        name="intent"
        value="mark-paid"
        status={pending ? 'pending' : 'idle'}
        aria-label={`Mark paid: Rs. ${formatRupees(refund.amountPaise)} to ${refund.customer.name ?? refund.customer.phone}`}
      >
        Mark paid
      </StatusButton>
    </Form>
  )
}

function RetryForm({ refund }: { refund: RefundQueueRow }) {
  const pending = useIsPending({ fields: { refundId: refund.id } })
  return (
    <Form method="post" preventScrollReset className="mt-2">
      <input type="hidden" name="refundId" value={refund.id} />
      <StatusButton
        name="intent"
        value="retry"
        variant="secondary"
        status={pending ? 'pending' : 'idle'}
        aria-label={`Retry the refund of Rs. ${formatRupees(refund.amountPaise)} to ${refund.customer.name ?? refund.customer.phone}`}
      >
        Retry
      </StatusButton>
    </Form>
  )
}
