import { describe, expect, it } from 'vitest'
import { privacyPolicy } from '~/content/legal/privacy-policy'
import { KRA_CHECK_NOTICE, KRA_CHECK_POLICY_PATH } from '~/domain/kra-check-notice'
import * as agreementRoute from '~/routes/api.v1/agreement'
import { businessDetails } from '~/server/business.server'

// Consent first (issue 28 item 2): the KRA check at step 1 is made on a legal duty, and every place
// that tells the customer about it says that it comes before the consent of step 3.

describe('the KRA check notice', () => {
  it('is what the API gives the apps to show before set-details', async () => {
    const response = (await agreementRoute.loader({
      request: new Request('http://localhost/api/v1/agreement'),
      params: {},
      context: { cspNonce: '', clientIp: '203.0.113.9' },
    } as never)) as Response
    const body = (await response.json()) as { data: { kraCheckNotice: string } }
    expect(body.data.kraCheckNotice).toBe(KRA_CHECK_NOTICE)
  })

  it('agrees with the section of the Privacy Policy it links to', () => {
    const sectionId = KRA_CHECK_POLICY_PATH.split('#')[1]
    const section = privacyPolicy(businessDetails).sections.find((candidate) => candidate.id === sectionId)
    const text = section?.blocks.filter((block) => typeof block === 'string').join(' ')
    expect(text).toContain('it is made when you save step 1 of your profile')
    expect(text).toContain('before the consent box at its last step')
    expect(KRA_CHECK_NOTICE).toContain('as a legal duty, not on your consent')
    expect(KRA_CHECK_NOTICE).toContain('asked at step 3')
  })
})
