import { LegalDocumentView } from '~/components/legal-document-view'
import { investorCharter } from '~/content/legal/investor-charter'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/investor-charter'

export const meta: Route.MetaFunction = () => [{ title: 'Investor Charter | Research Store' }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  return { document: investorCharter(businessDetails) }
}

export default function InvestorCharterPage({ loaderData: { document } }: Route.ComponentProps) {
  return <LegalDocumentView document={document} />
}
