import { LegalDocumentView } from '~/components/legal-document-view'
import { disclaimer } from '~/content/legal/disclaimer'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/disclaimer'

export const meta: Route.MetaFunction = () => [{ title: 'Disclaimer | Research Store' }]

export function loader() {
  return { details: businessDetails }
}

export default function DisclaimerPage({ loaderData: { details } }: Route.ComponentProps) {
  return <LegalDocumentView document={disclaimer(details)} />
}
