import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { kycPaymentRefusal } from '~/domain/kyc'
import { kraRecordPaymentRefusal, type KraRecordState } from '~/domain/kra-record-match'
import { profileIncompleteMessage } from '~/domain/profile'
import { ACCOUNT_CLOSED_MESSAGE } from '~/domain/purchase-limits'
import { termsNotAcceptedMessage } from '~/domain/terms-versions'
import { CROSS_SITE_REFUSAL_MESSAGE } from '~/server/http/origin.server'
import { XSRF_REFUSAL_MESSAGE } from '~/server/http/xsrf.server'

// docs/api.md's "403 answers" lists the text of every 403 the API gives, exactly: each text the
// code builds (with the docs' placeholders filled in where the code fills in a value) is in it.

const apiDocs = readFileSync(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8').replace(/\s+/g, ' ')

/** A KRA refusal with the docs' placeholders where the code writes the fields and the support address. */
function kraRefusalAsDocumented(kind: 'awaiting-review' | 'correction-asked'): string {
  const state: KraRecordState = { kind, differences: ['name'] }
  return kraRecordPaymentRefusal(state, '<support e-mail>')!
    .replace('the name the KYC', 'the <fields> the KYC')
    .replace('PAN is not the name in', 'PAN <is|are> not the <fields> in')
}

describe('docs/api.md lists the 403 answers', () => {
  const texts = [
    CROSS_SITE_REFUSAL_MESSAGE,
    XSRF_REFUSAL_MESSAGE,
    'Complete your details before paying: <step> is missing.',
    termsNotAcceptedMessage('<version>'),
    kycPaymentRefusal(null),
    kycPaymentRefusal('ON_HOLD'),
    kycPaymentRefusal('NOT_FOUND'),
    kycPaymentRefusal('REJECTED'),
    kraRefusalAsDocumented('awaiting-review'),
    kraRefusalAsDocumented('correction-asked'),
    ACCOUNT_CLOSED_MESSAGE,
  ]

  it.each(texts)('%s', (text) => {
    expect(apiDocs).toContain(`\`${text}\``)
  })

  it('names each missing onboarding step as the code does', () => {
    for (const step of ['details', 'pan-card', 'agreement'] as const) {
      const named = profileIncompleteMessage(step).slice(
        'Complete your details before paying: '.length,
        -' is missing.'.length,
      )
      expect(apiDocs).toContain(`\`${named}\``)
    }
  })
})
