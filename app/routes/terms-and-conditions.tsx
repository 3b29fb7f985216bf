import { LegalDocumentView } from '~/components/legal-document-view'
import { agreementDocument } from '~/content/legal/agreement.server'
import { termsAndConditions } from '~/content/legal/terms'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/terms-and-conditions'

export const meta: Route.MetaFunction = () => [{ title: 'Terms and Conditions | Research Store' }]

export function loader() {
  return { details: businessDetails, agreementVersion: agreementDocument(businessDetails).version }
}

export default function TermsAndConditions({ loaderData: { details, agreementVersion } }: Route.ComponentProps) {
  return (
    <LegalDocumentView document={termsAndConditions(details)} contents>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">Version: {agreementVersion}</p>
    </LegalDocumentView>
  )
}
