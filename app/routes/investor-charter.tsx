import { LegalDocumentView } from '~/components/legal-document-view'
import { investorCharter } from '~/content/legal/investor-charter'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/investor-charter'

export const meta: Route.MetaFunction = () => [{ title: 'Investor Charter | Research Store' }]

export function loader() {
  return { details: businessDetails }
}

export default function InvestorCharterPage({ loaderData: { details } }: Route.ComponentProps) {
  return <LegalDocumentView document={investorCharter(details)} />
}
