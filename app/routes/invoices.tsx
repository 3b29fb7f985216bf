import { siteTitle } from '~/domain/business-details'
import { Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { formatSignedRupees } from '~/domain/money'
import { taxDocumentHref } from '~/domain/tax-documents'
import { requireCompleteProfile } from '~/server/auth/sign-in.server'
import { customerDocuments } from '~/server/payments/tax-documents.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/invoices'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Invoices') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  return { documents: await customerDocuments(user.id) }
}

const COLUMNS = ['Document', 'Date', 'Services', 'Amount', 'GST included'] as const
const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { documents } = loaderData
  return (
    <section className="max-w-4xl">
      <h1 className="text-2xl font-semibold">Invoices</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        An invoice (or a receipt) for every payment and a credit note for every refund. Open one to print it or save it
        as a PDF.
      </p>
      {documents.length === 0 ? (
        <p className="mt-4">
          No payments yet.{' '}
          <Link to="/services" className="underline">
            Browse services
          </Link>
        </p>
      ) : (
        <ScrollableTable label="Invoices and credit notes" stackOnPhone>
          <ColumnHeaders columns={COLUMNS} />
          <tbody>
            {documents.map((document) => (
              <tr key={document.number}>
                <td className={cell} data-label="Document">
                  <Link to={taxDocumentHref(document.number)} className="underline">
                    {document.title} {document.number}
                  </Link>
                </td>
                <td className={cell} data-label="Date">
                  {document.issuedOn}
                </td>
                <td className={cell} data-label="Services">
                  {document.services}
                </td>
                <td className={`${cell} text-right tabular-nums`} data-label="Amount">
                  {formatSignedRupees(document.amountPaise)}
                </td>
                <td className={`${cell} text-right tabular-nums`} data-label="GST included">
                  {formatSignedRupees(document.gstPaise)}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollableTable>
      )}
    </section>
  )
}
