import { siteTitle } from '~/domain/business-details'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import {
  CheckboxField,
  Field,
  FormMessage,
  repliedField,
  SelectField,
  StatusButton,
  TextareaField,
} from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { EnteredComplaintSchema } from '~/domain/complaint-forms'
import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_DUE_SOON_DAYS,
  COMPLAINT_STATUSES,
  COMPLAINT_STATUS_LABELS,
} from '~/domain/complaints'
import { indiaIsoDate, indiaMidnight } from '~/domain/dates'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { complaintRegister, type RegisterFilter } from '~/server/complaints/register.server'
import { fileComplaint } from '~/server/complaints/filing.server'
import { readForm } from '~/server/http/form-data.server'
import type { Route } from './+types/complaints'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Complaints | Admin') }]

const FILTERS = [
  { value: 'due', label: `Overdue or due in ${COMPLAINT_DUE_SOON_DAYS} days` },
  { value: 'open', label: 'All open' },
  ...COMPLAINT_STATUSES.map((status) => ({ value: status, label: COMPLAINT_STATUS_LABELS[status] })),
  { value: 'all', label: 'All' },
] as const

const filterOf = (value: string | null): RegisterFilter['status'] =>
  (FILTERS.find((filter) => filter.value === value)?.value ?? 'open') as RegisterFilter['status']

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const status = filterOf(new URL(request.url).searchParams.get('status'))
  return { status, complaints: await complaintRegister({ status }), today: indiaIsoDate(new Date()) }
}

/** A complaint from SCORES or another source, entered with its own reference (audited). */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), { schema: EnteredComplaintSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, 400)
  const { receivedOn, ...entered } = submission.value
  const receivedAt = indiaMidnight(receivedOn)
  if (receivedAt > new Date())
    return data(
      { result: submission.reply({ fieldErrors: { receivedOn: ['The date received cannot be in the future.'] } }) },
      400,
    )
  const filed = await fileComplaint({ ...entered, receivedAt, enteredBy: admin.id })
  return redirect(`/admin/complaints/${filed.id}`)
}

const SOURCES = [
  { value: 'SEBI_SCORES', label: 'SEBI SCORES' },
  { value: 'OTHER_SOURCES', label: 'Other sources' },
  { value: 'DIRECTLY_FROM_INVESTORS', label: 'Directly from the investor (letter, e-mail, phone)' },
]

export default function AdminComplaints({ loaderData, actionData }: Route.ComponentProps) {
  const { complaints, status } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Complaints</h1>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <SelectField label="Show" selectProps={{ name: 'status', defaultValue: status }} options={FILTERS} />
        <button type="submit" className="rounded-md border border-gray-400 px-3 py-2">
          Filter
        </button>
      </Form>
      {complaints.length === 0 ? (
        <p className="mt-4">No complaints.</p>
      ) : (
        <table className="stacked-rows mt-4 w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col">Reference</th>
              <th scope="col">Complainant</th>
              <th scope="col">Category</th>
              <th scope="col">Status</th>
              <th scope="col">Received</th>
              <th scope="col">Due</th>
            </tr>
          </thead>
          <tbody>
            {complaints.map((complaint) => (
              <tr key={complaint.id} className="border-t border-gray-200 dark:border-gray-700">
                <td data-label="Reference">
                  <Link to={`/admin/complaints/${complaint.id}`} className="underline">
                    {complaint.reference}
                  </Link>
                  {complaint.sourceReference ? ` (${complaint.sourceReference})` : ''}
                </td>
                <td data-label="Complainant">{complaint.complainant}</td>
                <td data-label="Category">
                  {complaint.category}
                  {complaint.impersonation ? ', impersonation' : ''}
                </td>
                <td data-label="Status">{complaint.statusLabel}</td>
                <td data-label="Received">{complaint.receivedOn}</td>
                <td data-label="Due">
                  {complaint.dueOn}
                  {complaint.urgency === 'overdue' ? (
                    <strong> overdue</strong>
                  ) : complaint.urgency === 'due-soon' ? (
                    <strong> due soon</strong>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <EnterComplaint actionData={actionData} today={loaderData.today} />
    </>
  )
}

function EnterComplaint({ actionData, today }: { actionData: Route.ComponentProps['actionData']; today: string }) {
  const pending = useIsPending()
  const result = actionData?.result
  const field = (name: string) => repliedField(result, name)
  return (
    <section aria-labelledby="enter-complaint" className="mt-8 max-w-xl">
      <h2 id="enter-complaint" className="text-xl font-semibold">
        Enter a complaint from SCORES or another source
      </h2>
      {result?.status === 'error' ? <FormMessage tone="error">Check the fields below.</FormMessage> : null}
      <Form method="post" className="mt-2 space-y-3">
        <SelectField
          label="Source"
          errors={field('source').errors}
          selectProps={{ name: 'source', defaultValue: field('source').defaultValue ?? 'SEBI_SCORES' }}
          options={SOURCES}
        />
        <Field
          label="Its reference at the source"
          errors={field('sourceReference').errors}
          inputProps={{
            name: 'sourceReference',
            required: true,
            maxLength: 60,
            defaultValue: field('sourceReference').defaultValue,
          }}
        />
        <SelectField
          label="Category"
          errors={field('category').errors}
          placeholder="Choose"
          selectProps={{ name: 'category', required: true, defaultValue: field('category').defaultValue ?? '' }}
          options={COMPLAINT_CATEGORIES}
        />
        <Field
          label="Received on"
          errors={field('receivedOn').errors}
          inputProps={{
            name: 'receivedOn',
            type: 'date',
            required: true,
            max: today,
            defaultValue: field('receivedOn').defaultValue ?? today,
          }}
        />
        <Field
          label="Complainant's name (optional)"
          errors={field('complainantName').errors}
          inputProps={{ name: 'complainantName', maxLength: 120, defaultValue: field('complainantName').defaultValue }}
        />
        <Field
          label="Complainant's e-mail (optional)"
          errors={field('contactEmail').errors}
          inputProps={{
            name: 'contactEmail',
            type: 'email',
            maxLength: 254,
            defaultValue: field('contactEmail').defaultValue,
          }}
        />
        <Field
          label="Complainant's mobile, with country code (optional)"
          errors={field('contactPhone').errors}
          inputProps={{
            name: 'contactPhone',
            type: 'tel',
            maxLength: 16,
            defaultValue: field('contactPhone').defaultValue,
          }}
        />
        <TextareaField
          label="The complaint"
          errors={field('text').errors}
          textareaProps={{
            name: 'text',
            required: true,
            rows: 5,
            maxLength: 5000,
            defaultValue: field('text').defaultValue,
          }}
        />
        <CheckboxField label="Someone impersonated the RA" inputProps={{ name: 'impersonation' }} />
        <StatusButton status={pending ? 'pending' : 'idle'}>Enter complaint</StatusButton>
      </Form>
    </section>
  )
}
