import { LegalDocumentView } from '~/components/legal-document-view'
import { privacyPolicy } from '~/content/legal/privacy-policy'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/privacy-policy'

export const meta: Route.MetaFunction = () => [{ title: 'Privacy Policy | Research Store' }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  return { document: privacyPolicy(businessDetails) }
}

export default function PrivacyPolicyPage({ loaderData: { document } }: Route.ComponentProps) {
  return <LegalDocumentView document={document} />
}
