import { LegalDocumentView } from '~/components/legal-document-view'
import { agreementDocument } from '~/server/account/agreement-document.server'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/terms-and-conditions'

export const meta: Route.MetaFunction = () => [{ title: 'Terms and Conditions | Research Store' }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  const { terms, version } = agreementDocument(businessDetails)
  return { document: terms, agreementVersion: version }
}

export default function TermsAndConditions({ loaderData: { document, agreementVersion } }: Route.ComponentProps) {
  return (
    <LegalDocumentView document={document} contents>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">Version: {agreementVersion}</p>
    </LegalDocumentView>
  )
}
