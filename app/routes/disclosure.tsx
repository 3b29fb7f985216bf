import { LegalDocumentView } from '~/components/legal-document-view'
import { disclosure } from '~/content/legal/disclosure'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/disclosure'

export const meta: Route.MetaFunction = () => [{ title: 'Disclosure | Research Store' }]

export function loader() {
  return { details: businessDetails }
}

export default function DisclosurePage({ loaderData: { details } }: Route.ComponentProps) {
  return <LegalDocumentView document={disclosure(details)} />
}
