import { siteTitle } from '~/domain/business-details'
import { LegalDocumentView } from '~/components/legal-document-view'
import { disclaimer } from '~/content/legal/disclaimer'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/disclaimer'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Disclaimer') }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  return { document: disclaimer(businessDetails) }
}

export default function DisclaimerPage({ loaderData: { document } }: Route.ComponentProps) {
  return <LegalDocumentView document={document} />
}
