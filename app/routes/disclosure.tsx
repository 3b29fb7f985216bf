import { siteTitle } from '~/domain/business-details'
import { LegalDocumentView } from '~/components/legal-document-view'
import { disclosure } from '~/content/legal/disclosure'
import { businessDetails } from '~/server/business.server'
import { researchPublicKey } from '~/server/research/signing.server'
import type { Route } from './+types/disclosure'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Disclosure') }]

// The text comes as loader data, not in the route's JavaScript (docs/decisions/021-legal-text-as-loader-data.md).
export function loader() {
  return { document: disclosure(businessDetails, researchPublicKey()) }
}

export default function DisclosurePage({ loaderData: { document } }: Route.ComponentProps) {
  return <LegalDocumentView document={document} />
}
