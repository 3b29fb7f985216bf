import { LegalDocumentView } from '~/components/legal-document-view'
import { refundPolicy } from '~/content/legal/refund-policy'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/refund-policy'

export const meta: Route.MetaFunction = () => [{ title: 'Refund Policy | Research Store' }]

export function loader() {
  return { details: businessDetails }
}

export default function RefundPolicyPage({ loaderData: { details } }: Route.ComponentProps) {
  return <LegalDocumentView document={refundPolicy(details)} />
}
