import { siteTitle } from '~/domain/business-details'
import { DocumentVersionLine, LegalDocumentView } from '~/components/legal-document-view'
import { currentConsentDocuments } from '~/server/account/agreement-document.server'
import { publishedOn } from '~/server/account/document-versions.server'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/mitc'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Most Important Terms and Conditions (MITC)') },
]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export async function loader() {
  const { document, version } = currentConsentDocuments(businessDetails).MITC
  return { document, version, updatedOn: await publishedOn('MITC') }
}

export default function MostImportantTermsPage({ loaderData: { document, version, updatedOn } }: Route.ComponentProps) {
  return (
    <LegalDocumentView document={document}>
      <DocumentVersionLine version={version} updatedOn={updatedOn} />
    </LegalDocumentView>
  )
}
