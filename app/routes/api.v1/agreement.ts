import { currentAgreement } from '~/content/legal/agreement.server'
import { businessDetails } from '~/server/business.server'

/** The agreement a client shows before calling set-agreement: the terms, which end with the MITC and the consent. */
export function loader() {
  const { version, text } = currentAgreement(businessDetails)
  return Response.json({ data: { version, text } })
}
