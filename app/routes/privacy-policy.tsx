import { LegalDocumentView } from '~/components/legal-document-view'
import { privacyPolicy } from '~/content/legal/privacy-policy'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/privacy-policy'

export const meta: Route.MetaFunction = () => [{ title: 'Privacy Policy | Research Store' }]

export function loader() {
  return { details: businessDetails }
}

export default function PrivacyPolicyPage({ loaderData: { details } }: Route.ComponentProps) {
  return <LegalDocumentView document={privacyPolicy(details)} />
}
