import { postOnly } from '~/server/api/requests.server'
import { receiveMsg91Report } from '~/server/research/msg91-reports.server'
import type { Route } from './+types/webhooks.msg91'

export const loader = postOnly

/** MSG91's SMS delivery reports (docs/research.md, "Delivery reports"); the URL's secret is the check. */
export async function action({ request }: Route.ActionArgs) {
  return receiveMsg91Report(request)
}
