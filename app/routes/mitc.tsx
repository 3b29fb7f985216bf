import { LegalDocumentView } from '~/components/legal-document-view'
import { currentConsentDocuments } from '~/server/account/agreement-document.server'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/mitc'

export const meta: Route.MetaFunction = () => [{ title: 'Most Important Terms and Conditions (MITC) | Research Store' }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  const { document, version } = currentConsentDocuments(businessDetails).MITC
  return { document, version }
}

export default function MostImportantTermsPage({ loaderData: { document, version } }: Route.ComponentProps) {
  return (
    <LegalDocumentView document={document}>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">Version: {version}</p>
    </LegalDocumentView>
  )
}
