import { LegalDocumentView } from '~/components/legal-document-view'
import { currentConsentDocuments } from '~/content/legal/agreement.server'
import { mitcDocument } from '~/content/legal/mitc'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/mitc'

export const meta: Route.MetaFunction = () => [{ title: 'Most Important Terms and Conditions (MITC) | Research Store' }]

export function loader() {
  return { details: businessDetails, version: currentConsentDocuments(businessDetails).MITC.version }
}

export default function MostImportantTermsPage({ loaderData: { details, version } }: Route.ComponentProps) {
  return (
    <LegalDocumentView document={mitcDocument(details)}>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">Version: {version}</p>
    </LegalDocumentView>
  )
}
