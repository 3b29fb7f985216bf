import { siteTitle } from '~/domain/business-details'
import { Form } from 'react-router'
import { z } from 'zod'
import { Field, RadioGroupField, StatusButton } from '~/components/forms'
import { EXPORT_KIND_LABELS, EXPORT_KINDS, ExportRequestSchema } from '~/domain/admin'
import { indiaIsoDate } from '~/domain/dates'
import { requireAdmin } from '~/server/auth/admin-role.server'
import type { Route } from './+types/export'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Export | Admin') }]

/**
 * The form is a GET to /admin/export.csv, which answers the file (a download; this page stays).
 * When the fields are wrong it sends the browser back here with them, and this loader says why.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const params = Object.fromEntries(new URL(request.url).searchParams)
  const today = indiaIsoDate(new Date())
  const values = { kind: 'payments', from: `${today.slice(0, 8)}01`, to: today, ...params }
  const noErrors: Partial<Record<'kind' | 'from' | 'to', string[]>> = {}
  if (!params.kind) return { values, errors: noErrors }
  const parsed = ExportRequestSchema.safeParse(params)
  if (!parsed.success) return { values, errors: { ...noErrors, ...z.flattenError(parsed.error).fieldErrors } }
  return { values, errors: noErrors }
}

export default function AdminExport({ loaderData }: Route.ComponentProps) {
  const { values, errors } = loaderData
  // An audit covers a financial year: from 1 April.
  const packFrom = `${Number(values.to.slice(0, 4)) - (values.to.slice(5) < '04-01' ? 1 : 0)}-04-01`
  return (
    <section className="max-w-xl">
      <h1 className="text-2xl font-semibold">Export for the accountant</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        A CSV file (opens in Excel or Sheets) of the payments created, the subscriptions started, or the invoices and
        credit notes issued between two dates in India time, both included, however long the range: the download starts
        at once and the file is written as it arrives. Amounts are in rupees.
      </p>
      {/* A file cannot arrive through a client-side navigation: the browser itself fetches it. */}
      <Form method="get" action="/admin/export.csv" reloadDocument className="mt-4 space-y-4">
        <RadioGroupField
          legend="What to export"
          name="kind"
          options={EXPORT_KINDS.map((kind) => ({ value: kind, label: EXPORT_KIND_LABELS[kind] }))}
          defaultValue={values.kind}
          errors={errors.kind}
        />
        <Field
          label="From"
          errors={errors.from}
          inputProps={{ name: 'from', type: 'date', defaultValue: values.from, required: true }}
        />
        <Field
          label="To"
          errors={errors.to}
          inputProps={{ name: 'to', type: 'date', defaultValue: values.to, required: true }}
        />
        {/* A download leaves the page where it is: there is no pending state to show. */}
        <StatusButton>Download CSV</StatusButton>
      </Form>
      <h2 className="mt-10 text-xl font-semibold">Research audit pack</h2>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        For the annual audit: a zip of every research item published between two dates in India time, both included,
        with its signed record, the public key, the roll and every delivery, as JSON and CSV. Check it with{' '}
        <code>npm run research:verify</code>.
      </p>
      <Form method="get" action="/admin/research/audit-pack" reloadDocument className="mt-4 space-y-4">
        <Field
          label="First publication date"
          inputProps={{ name: 'from', type: 'date', defaultValue: packFrom, required: true }}
        />
        <Field
          label="Last publication date"
          inputProps={{ name: 'to', type: 'date', defaultValue: values.to, required: true }}
        />
        <StatusButton>Download the audit pack</StatusButton>
      </Form>
    </section>
  )
}
