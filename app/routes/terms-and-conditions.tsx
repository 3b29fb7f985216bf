import { siteTitle } from '~/domain/business-details'
import { HtmlOnce } from '~/components/html-once'
import { LegalDocumentView } from '~/components/legal-document-view'
import { agreementDocument } from '~/server/account/agreement-document.server'
import { termsDateLine } from '~/server/account/terms-versions.server'
import { businessDetails } from '~/server/business.server'
import { forHtmlOnly } from '~/server/http/html-only.server'
import type { Route } from './+types/terms-and-conditions'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Terms and Conditions') }]

// The text comes from the loader, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md),
// and once: in the HTML of the page, or in the loader data of a client navigation (decision 044).
// The date line is the recorded version's (termsDateLine), not part of the versioned text.
export async function loader({ context }: Route.LoaderArgs) {
  const { terms, version } = agreementDocument(businessDetails)
  const dateLine = (await termsDateLine(version)) ?? undefined
  return { document: forHtmlOnly(context, 'terms', { ...terms, dateLine }), agreementVersion: version }
}

export default function TermsAndConditions({ loaderData: { document, agreementVersion } }: Route.ComponentProps) {
  return (
    <HtmlOnce name="terms" value={document}>
      {(terms) => (
        <LegalDocumentView document={terms} contents>
          <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">Version: {agreementVersion}</p>
        </LegalDocumentView>
      )}
    </HtmlOnce>
  )
}
