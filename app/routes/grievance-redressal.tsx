import { siteTitle } from '~/domain/business-details'
import { GrievanceRedressal } from '~/content/legal/grievance-redressal'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/grievance-redressal'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Grievance Redressal') }]

export function loader() {
  return { details: businessDetails }
}

export default function GrievanceRedressalPage({ loaderData: { details } }: Route.ComponentProps) {
  return <GrievanceRedressal details={details} />
}
