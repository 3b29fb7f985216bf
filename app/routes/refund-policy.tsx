import { siteTitle } from '~/domain/business-details'
import { LegalDocumentView } from '~/components/legal-document-view'
import { refundPolicy } from '~/content/legal/refund-policy'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/refund-policy'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Refund Policy') }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  return { document: refundPolicy(businessDetails) }
}

export default function RefundPolicyPage({ loaderData: { document } }: Route.ComponentProps) {
  return <LegalDocumentView document={document} />
}
