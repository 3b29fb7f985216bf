import { siteTitle } from '~/domain/business-details'
import { data, Link } from 'react-router'
import { TaxDocument } from '~/components/tax-document'
import { requireUser } from '~/server/auth/sign-in.server'
import { taxDocument } from '~/server/payments/tax-documents.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import { PrintButton } from '~/components/print-button'
import type { Route } from './+types/invoice'

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title: siteTitle(
      matches,
      `${loaderData ? `${loaderData.document.title} ${loaderData.document.number}` : 'Document'}`,
    ),
  },
]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const document = await taxDocument(user, `${params.series}/${params.year}/${params.sequence}`)
  if (!document) throw data('Not found', { status: 404 })
  return { document, ownDocument: document.customerId === user.id }
}

export default function Invoice({ loaderData }: Route.ComponentProps) {
  const { document, ownDocument } = loaderData
  return (
    <div className="space-y-4">
      <p className="text-sm print:hidden">
        {ownDocument ? (
          <Link to="/invoices" className="underline">
            All your invoices
          </Link>
        ) : (
          <Link to={`/admin/customers/${document.customerId}`} className="underline">
            The customer&apos;s page
          </Link>
        )}
        . To keep a copy, use your browser&apos;s Print and choose &quot;Save as PDF&quot;.
      </p>
      <PrintButton />
      <TaxDocument document={document} />
    </div>
  )
}
