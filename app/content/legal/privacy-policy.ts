import type { BusinessDetails, DataRecipients } from '~/domain/business-details'
import type { LegalDocument } from './document'
import { RESEARCH_KEPT_YEARS } from '~/domain/research-retention'
import { SESSION_IDLE_DAYS } from '~/domain/sign-in'
import { OTP_VALID_MINUTES } from '~/domain/one-time-codes'
import { ACCOUNT_DATA_RETENTION_DAYS, UNFINISHED_ACCOUNT_ERASE_DAYS } from './rules'

/**
 * A privacy notice written to the Digital Personal Data Protection Act, 2023 and the DPDP Rules,
 * 2025: what data, for which purpose, how long, who receives it, the rights and the grievance contact.
 */
export function privacyPolicy(details: BusinessDetails): LegalDocument {
  const { name, address, complianceOfficer, supportEmail, dataRecipients } = details
  return {
    title: 'Privacy Policy',
    intro: [
      `This notice explains what personal data ${name} ("we", "us") collects when you use this website and our research services, why we collect it, how long we keep it, who receives it and what your rights are. We process personal data as a Data Fiduciary under the Digital Personal Data Protection Act, 2023 (DPDP Act) and the Digital Personal Data Protection Rules, 2025.`,
    ],
    sections: [
      {
        id: 'who-we-are',
        heading: 'Who we are and how to reach us',
        blocks: [
          `${name} is a research analyst registered with SEBI, with its registered office at ${address}.`,
          `For any question or grievance about your personal data, contact ${complianceOfficer.name}, our Compliance Officer, who answers on our behalf about how we process personal data: ${complianceOfficer.email}, ${complianceOfficer.phone}. You can also write to ${supportEmail}.`,
        ],
      },
      {
        id: 'data-and-purposes',
        heading: 'The personal data we collect and why',
        blocks: [
          'We collect only what we need for these purposes:',
          {
            list: [
              'Mobile number: to sign you in with one-time codes, and to contact you about your account, payments and subscriptions.',
              'Name, e-mail address and date of birth: to identify you, to check that you are 18 or older, for KYC, and to send you confirmations, receipts and the research you subscribed to.',
              'PAN and an image of your PAN card: for KYC, which SEBI requires of research analysts for fee-paying clients, and to apply the limit SEBI sets on the fees a family may pay. When you save your details (and when our team approves a correction of them) we send your PAN and date of birth to a KYC Registration Agency (KRA), which answers whether your KYC is validated, registered, on hold or not found, with the name it holds and a reference; we keep that answer with your profile. You can pay only while it is validated or registered.',
              'Records of your acceptances: each time you acknowledge one of our documents (the Terms and Conditions, the Most Important Terms and Conditions, the consent statement, the Investor Charter, and your consent to the processing of personal data under this Privacy Policy), we record which document, its version, a SHA-256 fingerprint of its exact text, the time, the IP address and browser (user agent) it came from, and whether it came through our website or our app. Each acknowledgement is a separate record that is never changed: because SEBI requires us to keep a record of the terms we disclosed and of your consent, and the DPDP Act requires us to be able to show your consent.',
              'Payment information (amount, method, payment references, and for bank transfers the screenshot you send us and the name of the paying account): to confirm payments, start subscriptions, issue receipts, make refunds and keep accounts. Card numbers and UPI PINs are handled by our payment gateway; we never see or store them.',
              'Complaints and messages you send us: to resolve them, and because SEBI requires records of our interactions with clients.',
              'Technical data (IP address, browser type, the pages you request, and a session cookie): to keep you signed in, remember your cart, secure the website and prevent fraud and abuse, such as repeated requests for one-time codes.',
            ],
          },
          'We do not use your personal data for any other purpose without telling you and, where needed, asking for your consent again.',
        ],
      },
      {
        id: 'consent-and-legal-duties',
        heading: 'Consent and legal duties',
        blocks: [
          'We process your personal data with the consent you give when you complete your profile: a box of its own, separate from your acceptance of our Terms and Conditions, and recorded as described above. We also process it where the law requires us to, such as for KYC and the record keeping that SEBI regulations require.',
          'The check of your KYC with a KYC Registration Agency is one of these legal duties, so it comes first: it is made when you save step 1 of your profile (your name, e-mail address, date of birth and PAN), before the consent box at its last step, and step 1 says so before you save. The app tells you the same before it sends your details.',
          'When you sign in, the sign-in page tells you what your mobile number is used for before we send the code, and each field of your profile says what it is for.',
          'Marketing messages are sent only if you agree to them separately, and you can stop them at any time.',
          'You can withdraw your consent at any time, as easily as you gave it, by writing to the contact above. Withdrawal does not affect processing already done, and we will have to stop providing the research services that need the data. It does not stop processing that the law requires of us, such as keeping the records described below.',
        ],
      },
      {
        id: 'cookies',
        heading: 'Cookies',
        blocks: [
          'We use only the cookies this website needs to work: one that keeps you signed in and one that remembers the services in your cart. We do not use advertising or tracking cookies or third-party analytics.',
        ],
      },
      {
        id: 'sharing',
        heading: 'Who receives your personal data',
        blocks: [
          'We do not sell your personal data. We share it only as needed for the purposes above with:',
          {
            list: [
              ...dataRecipientList(dataRecipients).map(({ name, role }) => `${name}: ${role};`),
              'SEBI, the Research Analyst Administration and Supervisory Body (BSE), auditors, courts and other authorities, when the law requires it.',
            ],
          },
          'The providers who process data for us do so only on our instructions and under contracts that require them to protect it.',
        ],
      },
      {
        id: 'retention',
        heading: 'How long we keep your personal data',
        blocks: [
          'What we keep, why, for how long and on what legal basis:',
          {
            table: {
              columns: ['Data', 'Purpose', 'How long', 'Legal basis'],
              rows: [
                [
                  'Mobile number, name, e-mail address',
                  'Signing you in, serving you, sending your invoices and messages',
                  `While your account is open, then ${ACCOUNT_DATA_RETENTION_DAYS} days; if you completed your profile or paid us, as long as your KYC details below. An account whose profile was never completed is erased after ${UNFINISHED_ACCOUNT_ERASE_DAYS} days without a sign-in. Your number is then replaced, so it can open a new account`,
                  'Your consent (DPDP Act s.6); SEBI record keeping for client records',
                ],
                [
                  'PAN, date of birth, PAN card image, KYC status from the KRA',
                  'KYC, and counting the fees your family pays against the SEBI limit',
                  `5 years after your account closes and after your last payment or refund, whichever is later (${ACCOUNT_DATA_RETENTION_DAYS} days after it closes if you never completed your profile or paid us); the PAN card image is deleted with them`,
                  'SEBI (Research Analysts) Regulations, 2014: KYC and record keeping',
                ],
                [
                  "Family members' PANs",
                  "Counting your family's fees against the SEBI limit",
                  `While your account is open, then ${ACCOUNT_DATA_RETENTION_DAYS} days`,
                  'SEBI (Research Analysts) Regulations, 2014: fee limits',
                ],
                [
                  'Your acceptances of our terms and consents',
                  'Proof of what you agreed to and when',
                  'At least 5 years from the acknowledgement; never changed, and kept when your other data is erased (they hold no name, number or PAN)',
                  'SEBI (Research Analysts) Regulations, 2014: record keeping',
                ],
                [
                  'Payments, invoices, credit notes and refunds',
                  'Taking payments, refunds, accounts and tax',
                  'Until the later of 5 years after the last of them (the payment, its refunds, the end of the services it paid for) and the end of the GST period: 72 months from the due date of the annual GST return of the financial year of its invoice or credit notes (for April 2020 to March 2021 the return is due on 31 December 2021, so they are kept until 31 December 2027). Then they are erased together, once your account has been erased; a payment still in progress or a refund still to be paid is never erased',
                  'SEBI record keeping; CGST Act, 2017 s.36',
                ],
                [
                  'Complaints and our messages to you',
                  'Resolving complaints; records of our dealings with clients',
                  '5 years after the complaint is resolved or closed, then erased with its steps, our answers and any image you attached. The monthly complaint figures we publish stay: they are counts that name no one',
                  'SEBI (Research Analysts) Regulations, 2014: record keeping',
                ],
                [
                  'The research delivered to you: which items reached you, when, by which channel and whether it arrived, and when you first opened each',
                  'Delivering research; the record SEBI requires of research and of who received it',
                  `${RESEARCH_KEPT_YEARS} years from the research's publication, then erased together with the research itself`,
                  'SEBI (Research Analysts) Regulations, 2014: record keeping',
                ],
                [
                  'Sign-in sessions, logs of access and processing (including our staff viewing your data)',
                  'Keeping you signed in, security, finding misuse',
                  `A session ends after ${SESSION_IDLE_DAYS} days without use or when you sign out; logs at least 1 year`,
                  'DPDP Rules, 2025 (security safeguards and logs)',
                ],
                [
                  'One-time sign-in codes',
                  'Confirming it is you',
                  `Stored only scrambled (hashed); they expire within ${OTP_VALID_MINUTES} minutes`,
                  'Your consent; security',
                ],
              ],
            },
          },
          'When a period ends we erase the data, except where a law requires us to keep it longer. You can see everything we hold about you, and download it, on [Your data](/account).',
          'Closing your account on [Your data](/account) ends your services with a proportionate refund and signs you out everywhere; we then keep only the records the table says SEBI and other laws require, for as long as it says, and erase them after that.',
        ],
      },
      {
        id: 'security',
        heading: 'How we protect your personal data',
        blocks: [
          'We use encrypted connections (HTTPS), limit access to the staff who need it for their work, keep PAN card images in private storage that only you and our authorised staff can see, log access to personal data, and keep backups. If a personal data breach affects you, we will tell you and the Data Protection Board of India without delay, as the DPDP Act and Rules require.',
        ],
      },
      {
        id: 'your-rights',
        heading: 'Your rights',
        blocks: [
          'Under the DPDP Act you have the right to:',
          {
            list: [
              'get a summary of the personal data we process about you, what we do with it, and who we have shared it with;',
              'have your personal data corrected, completed or updated;',
              'have your personal data erased when it is no longer needed, except what the law requires us to keep;',
              'withdraw your consent;',
              'have your grievances about your personal data redressed;',
              'nominate another person to exercise these rights for you if you die or become unable to do so.',
            ],
          },
          'You can see and download the data we hold about you, ask for a correction and close your account yourself on [Your data](/account), and name your nominee on [Nominee for your data rights](/account/nominee). A complaint about your personal data you can file as a privacy grievance on [our complaint form](/complaints/new?category=PRIVACY): it gets a reference number and the date by which we answer.',
          `To use these rights otherwise, write to ${complianceOfficer.email} from the e-mail address in your profile. We may ask you to confirm your identity. We acknowledge every request and respond as soon as we can, and to grievances within 90 days at the latest, as the DPDP Rules require.`,
          'If you are not satisfied with how we handled your grievance, you can complain to the Data Protection Board of India.',
        ],
      },
      {
        id: 'children',
        heading: 'Children',
        blocks: [
          'Our services are only for people aged 18 or older. We do not knowingly collect personal data of anyone younger; if we find that we have, we delete it.',
        ],
      },
      {
        id: 'changes',
        heading: 'Changes to this notice',
        blocks: [
          'Each text of this notice is recorded as a version when we publish it, and the date at the top is that date. When we change it we tell you on the website and by e-mail, and ask you to give your consent to the new text before your next payment; until you do, we process your data only as the text you consented to allows.',
        ],
      },
    ],
  }
}

/** Who receives personal data from us and why, by their configured names: the Privacy Policy and the data download. */
export function dataRecipientList(recipients: DataRecipients): { name: string; role: string }[] {
  return [
    {
      name: recipients.kra,
      role: 'a KYC Registration Agency, which receives your PAN and date of birth to tell us the status of your KYC record (we do not upload KYC records to it)',
    },
    { name: recipients.paymentGateway, role: 'our payment gateway, to take payments and make refunds (with our bank)' },
    { name: recipients.smsProvider, role: 'our SMS provider, to send you one-time codes and messages' },
    { name: recipients.emailProvider, role: 'our e-mail provider, to send you e-mails' },
    {
      name: recipients.storageProvider,
      role: 'our storage provider, which keeps PAN card images and payment screenshots in private storage',
    },
    { name: recipients.hostingProvider, role: 'our hosting provider, which runs the website and its database' },
  ]
}
