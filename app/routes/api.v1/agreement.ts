import { currentAgreement } from '~/content/legal/agreement.server'
import { apiGet, getOnly } from '~/server/api.server'
import { businessDetails } from '~/server/business.server'

/**
 * The agreement a client shows before calling set-agreement: its version and its text, exactly
 * the plain text whose SHA-256 set-agreement records (the terms, ending with the MITC and the consent).
 */
export const loader = apiGet(() => {
  const { version, text } = currentAgreement(businessDetails)
  return Response.json({ data: { version, text } })
})

export const action = getOnly
