import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { FormMessage, repliedField, SelectField, StatusButton, TextareaField } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { ComplaintStepSchema } from '~/domain/complaint-forms'
import { COMPLAINT_STATUS_LABELS, NEXT_COMPLAINT_STATUSES } from '~/domain/complaints'
import { formatIndiaDateTime } from '~/domain/dates'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { complaintForAdmin, takeComplaintStep } from '~/server/complaints/register.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/complaint'

export const meta: Route.MetaFunction = ({ data, matches }) => [
  { title: siteTitle(matches, `${data?.complaint.reference ?? 'Complaint'} | Admin`) },
]

async function loadComplaint(id: string) {
  const complaint = isUuid(id) ? await complaintForAdmin(id) : null
  if (!complaint) throw data('Not Found', { status: 404 })
  return complaint
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const complaint = await loadComplaint(params.complaintId)
  return {
    complaint: {
      ...complaint,
      receivedAt: formatIndiaDateTime(complaint.receivedAt),
      events: complaint.events.map((event) => ({ ...event, at: formatIndiaDateTime(event.at) })),
    },
  }
}

/** The next step, with the text sent to the complainant; audited; of two admins at once, the second is refused. */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  await loadComplaint(params.complaintId)
  const submission = parseWithZod(await readForm(request), { schema: ComplaintStepSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), message: null, ok: false }, 400)
  const step = await takeComplaintStep({ complaintId: params.complaintId, adminId: admin.id, ...submission.value })
  // Refused (another admin's step came first, or this step no longer follows): the typed text stays in the form.
  if (!step.ok) return data({ result: submission.reply(), message: step.message, ok: false }, step.status)
  return {
    result: undefined,
    message: `Marked ${COMPLAINT_STATUS_LABELS[submission.value.status].toLowerCase()}.`,
    ok: true,
  }
}

export default function AdminComplaint({ loaderData, actionData }: Route.ComponentProps) {
  const { complaint } = loaderData
  const next = NEXT_COMPLAINT_STATUSES[complaint.status]
  return (
    <>
      <p>
        <Link to="/admin/complaints" className="underline">
          All complaints
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-semibold">Complaint {complaint.reference}</h1>
      <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="font-medium">Status</dt>
        <dd>{COMPLAINT_STATUS_LABELS[complaint.status]}</dd>
        <dt className="font-medium">Source</dt>
        <dd>
          {complaint.source === 'SEBI_SCORES'
            ? 'SEBI SCORES'
            : complaint.source === 'OTHER_SOURCES'
              ? 'Other sources'
              : 'Directly from the investor'}
          {complaint.sourceReference ? `, reference ${complaint.sourceReference}` : ''}
        </dd>
        <dt className="font-medium">Category</dt>
        <dd>
          {complaint.category}
          {complaint.impersonation ? ' (someone impersonated the RA)' : ''}
        </dd>
        <dt className="font-medium">Received</dt>
        <dd>{complaint.receivedAt}</dd>
        <dt className="font-medium">Due by</dt>
        <dd>{complaint.dueOn}</dd>
        <dt className="font-medium">Complainant</dt>
        <dd>
          {[complaint.complainant.name, complaint.complainant.phone, complaint.complainant.email]
            .filter(Boolean)
            .join(', ') || 'Not given'}
          {complaint.complainant.userId ? (
            <>
              {' '}
              (
              <Link to={`/admin/customers/${complaint.complainant.userId}`} className="underline">
                customer
              </Link>
              )
            </>
          ) : null}
        </dd>
      </dl>
      <h2 className="mt-6 text-xl font-semibold">The complaint</h2>
      <p className="mt-2 whitespace-pre-line">{complaint.text}</p>
      {complaint.hasAttachment ? (
        <p className="mt-2">
          <a
            href={`/admin/complaints/${complaint.id}/attachment`}
            className="underline"
            target="_blank"
            rel="noreferrer"
          >
            Open the attached image
          </a>
        </p>
      ) : null}
      <h2 className="mt-6 text-xl font-semibold">Steps</h2>
      <ol className="mt-2 space-y-2">
        {complaint.events.map((event) => (
          <li key={event.id}>
            <p>
              {COMPLAINT_STATUS_LABELS[event.status]}: {event.at}, by {event.by}
            </p>
            {event.message ? (
              <p className="whitespace-pre-line text-sm">Sent to the complainant: {event.message}</p>
            ) : null}
          </li>
        ))}
      </ol>
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? 'success' : 'error'}>{actionData.message}</FormMessage>
      ) : null}
      {next.length > 0 ? <StepForm next={next} version={complaint.version} result={actionData?.result} /> : null}
    </>
  )
}

function StepForm({
  next,
  version,
  result,
}: {
  next: readonly (keyof typeof COMPLAINT_STATUS_LABELS)[]
  version: number
  result: Parameters<typeof repliedField>[0]
}) {
  const pending = useIsPending()
  const status = repliedField(result, 'status')
  const message = repliedField(result, 'message')
  return (
    <Form method="post" className="mt-6 max-w-xl space-y-3">
      <h2 className="text-xl font-semibold">Next step</h2>
      <input type="hidden" name="version" value={version} />
      <SelectField
        label="Mark as"
        errors={status.errors}
        selectProps={{ name: 'status', defaultValue: status.defaultValue ?? next[0] }}
        options={next.map((value) => ({ value, label: COMPLAINT_STATUS_LABELS[value] }))}
      />
      <TextareaField
        label="Text sent to the complainant"
        hint="Required for an answer and a resolution; sent by e-mail or SMS and shown on their complaints page."
        errors={message.errors}
        textareaProps={{ name: 'message', rows: 5, maxLength: 5000, defaultValue: message.defaultValue }}
      />
      <StatusButton status={pending ? 'pending' : 'idle'}>Save step</StatusButton>
    </Form>
  )
}
