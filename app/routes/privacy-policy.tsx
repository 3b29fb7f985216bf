import { siteTitle } from '~/domain/business-details'
import { DocumentVersionLine, LegalDocumentView } from '~/components/legal-document-view'
import { currentConsentDocuments } from '~/server/account/agreement-document.server'
import { publishedOn } from '~/server/account/document-versions.server'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/privacy-policy'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Privacy Policy') }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
// "Last updated" is the recorded version's date (docs/decisions/053-document-versions.md), not part of its text.
export async function loader() {
  const { document, version } = currentConsentDocuments(businessDetails).PERSONAL_DATA
  return { document, version, updatedOn: await publishedOn('PERSONAL_DATA') }
}

export default function PrivacyPolicyPage({ loaderData: { document, version, updatedOn } }: Route.ComponentProps) {
  return (
    <LegalDocumentView document={document}>
      <DocumentVersionLine version={version} updatedOn={updatedOn} />
    </LegalDocumentView>
  )
}
