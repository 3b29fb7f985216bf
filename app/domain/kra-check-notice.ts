// What a customer is told before step 1 of the profile sends anything to the KRA (issue 28 item 2,
// docs/regulatory.md, "Consent first"): the page, the API's GET /agreement and the Privacy Policy
// read these, so the order of the steps and the texts agree.

export const KRA_CHECK_NOTICE_HEADING = 'Before you save: your KYC check'

export const KRA_CHECK_NOTICE =
  'When you save this step, we send your PAN and date of birth to a KYC Registration Agency (KRA), which tells us whether your KYC is in order. SEBI requires this check of every client who pays a research analyst, so we make it as a legal duty, not on your consent. Your consent to the rest of our processing of your personal data is asked at step 3, before your profile is complete.'

/** The Privacy Policy's section that states the legal duty. */
export const KRA_CHECK_POLICY_PATH = '/privacy-policy#consent-and-legal-duties'
