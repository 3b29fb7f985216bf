import type { BusinessDetails } from '~/domain/business-details'
import { formatIsoDate } from '~/domain/dates'
import type { LegalDocument, LegalSection } from './document'
import {
  firstContactStep,
  REGISTRATION_DISCLAIMER,
  SCORES_URL,
  SEBI_STANDARD_WARNING,
  SMART_ODR_URL,
} from './regulatory'
import {
  ACCOUNT_DATA_RETENTION_DAYS,
  FEE_CAP_PER_FAMILY_PER_YEAR,
  GRIEVANCE_RESOLUTION_DAYS,
  MANUAL_PAYMENT_EXPIRY_DAYS,
  REFUND_PAYMENT_DAYS,
  REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS,
  SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS,
} from './rules'
import { TERMS_CHANGE_NOTICE_DAYS } from '~/domain/terms-versions'

/**
 * The Terms and Conditions a customer accepts: our clauses (every topic of the original terms, docs/product.md
 * section 2), SEBI's
 * minimum mandatory terms (circular of 8 January 2025), the standard MITC (17 February 2025) and
 * the standard consent statement. Clauses refer to each other by heading, not number, so adding a
 * clause cannot leave a wrong cross-reference.
 */
export function termsAndConditions(details: BusinessDetails): LegalDocument {
  const { name, sebiRegistrationNumber, address, supportEmail, supportPhone, workingHours } = details
  return {
    title: 'Terms and Conditions',
    numbered: true,
    intro: [
      `These terms and conditions ("Terms") are an agreement between you and ${name}, a research analyst registered with the Securities and Exchange Board of India (SEBI) under registration number ${sebiRegistrationNumber}, with its registered office at ${address} ("we", "us", "our"). They govern your use of this website and of the research services you subscribe to through it.`,
      `The sections "SEBI's minimum mandatory terms" and "Most Important Terms and Conditions (MITC)" contain terms SEBI requires for every client of a research analyst. If anything else in these Terms conflicts with them or with SEBI's regulations and circulars, they prevail and the conflicting part does not bind you.`,
    ],
    sections: [
      {
        id: 'definitions',
        heading: 'Definitions',
        blocks: [
          'In these Terms:',
          {
            list: [
              '"Platform" means this website and every page, form and feature on it.',
              '"Research services" means the research reports, recommendations and other research you receive from us under a subscription.',
              '"Subscription" means your paid access to one research service for the number of days stated with its price.',
              '"Fee" means the amount you pay for a subscription, as shown on the Platform when you buy it.',
              '"You" and "client" mean the individual who creates an account on the Platform and subscribes.',
              '"SEBI" means the Securities and Exchange Board of India, and "RA Regulations" means the SEBI (Research Analysts) Regulations, 2014, as amended.',
              '"RAASB" means the Research Analyst Administration and Supervisory Body recognised by SEBI, presently BSE Limited.',
              '"Family" means you, your dependent spouse, your dependent children and your dependent parents.',
              '"Business day" means a day on which the stock exchanges in India are open for trading.',
            ],
          },
        ],
      },
      {
        id: 'acceptance',
        heading: 'Acceptance of these Terms',
        blocks: [
          'By accepting these Terms in the agreement step of your profile, you confirm that you have read, understood and accept them, including the Most Important Terms and Conditions and the consent statement at the end. Our [Privacy Policy](/privacy-policy), [Refund Policy](/refund-policy), [Disclaimer](/disclaimer) and [Disclosure](/disclosure) form part of these Terms.',
          'As SEBI requires, we do not provide any research service or charge any fee until you have given your consent to these Terms. At the agreement step you acknowledge these Terms, the Most Important Terms and Conditions, the consent statement and the Investor Charter, each with a box of its own, and separately consent to the processing of your personal data. For each acknowledgement we keep a record that is never changed, for at least 5 years: which document, its version (shown with these Terms), a SHA-256 fingerprint of its exact text, the time, and the IP address, browser and channel (website or app) it came from. We e-mail you a copy of all of them, with their versions and the time you accepted.',
          'If you do not accept these Terms, please do not subscribe.',
        ],
      },
      {
        id: 'age',
        heading: 'Age and eligibility',
        blocks: [
          'You must be at least 18 years old and competent to contract under the Indian Contract Act, 1872 to create an account or subscribe. We check your date of birth when you complete your profile and do not accept subscriptions from anyone younger.',
          'You must subscribe in your own name and for your own benefit, and complete the know-your-client (KYC) process described in these Terms. Our research services are meant for clients in India.',
        ],
      },
      {
        id: 'about',
        heading: 'About the Platform and about us',
        blocks: [
          `${name} is registered with SEBI as a research analyst (registration number ${sebiRegistrationNumber}, granted on ${formatIsoDate(details.sebiRegistrationDate)}) and enlisted with BSE Limited, the RAASB (enlistment number ${details.bseEnlistmentNumber}). Our Grievance Officer is ${details.grievanceOfficer.name} (${details.grievanceOfficer.email}, ${details.grievanceOfficer.phone}). Associates: ${details.associates} Our [Disclosure](/disclosure) gives the status of our annual compliance audit. We are a research analyst, not an investment adviser: we publish research and recommendations on securities for our subscribers, we do not give advice tailored to your personal financial situation, we do not manage your money or securities, and we do not execute trades for you.`,
          'The Platform lets you sign in with your mobile number, complete your profile and KYC, choose research services, pay for them and see your subscriptions.',
        ],
      },
      {
        id: 'licence',
        heading: 'Licence to use the Platform and the research',
        blocks: [
          'While your subscription is active, we grant you a personal, limited, non-exclusive, non-transferable and revocable licence to use the research services you paid for, for your own investment decisions.',
          'You may not copy, share, resell, publish, broadcast or forward the research (including in messaging groups or on social media), or otherwise make it available to anyone else, whether or not they pay for it.',
        ],
      },
      {
        id: 'intellectual-property',
        heading: 'Intellectual property',
        blocks: [
          'All content on the Platform and in the research services, including reports, recommendations, text, graphics, logos and software, belongs to us or to our licensors and is protected by Indian copyright and trade mark law. Apart from the licence above, these Terms give you no right in it.',
        ],
      },
      {
        id: 'your-obligations',
        heading: 'Your obligations',
        blocks: [
          'You agree to:',
          {
            list: [
              'give true, complete and current information (name, e-mail address, date of birth, PAN and PAN card) and keep it up to date;',
              'complete KYC: as the RA Regulations require, we collect and store your KYC details and check your PAN and date of birth with a KYC Registration Agency (KRA); you can pay only while the KRA holds your KYC as validated or registered. Once your profile is complete, your name, PAN and date of birth change only through a correction request our team approves (your e-mail address you change yourself, with a code sent to the new address);',
              'keep your mobile phone and the one-time codes we send you secure, since anyone who has them can use your account;',
              'read the research, the risk level of each service and our disclosures, and make your own investment decisions;',
              'pay only in the ways set out in "Payment and fees";',
              `tell us at once at ${supportEmail} if you notice any unauthorised use of your account or any error in what we provide.`,
            ],
          },
        ],
      },
      {
        id: 'payment-and-fees',
        heading: 'Payment and fees',
        blocks: [
          'The fee and the duration of each research service are shown on the [Services](/services) page before you pay. Fees are in Indian rupees. Statutory charges such as GST apply as the law requires and are shown before you pay.',
          `As SEBI requires for individual and HUF clients who are not accredited investors, the fees you and your family pay us for all our research services together will not exceed ${FEE_CAP_PER_FAMILY_PER_YEAR} a year, excluding statutory charges, or any other limit that SEBI or the RAASB sets. We do not charge fees in advance for more than one year, the longest period SEBI currently allows.`,
          `You can pay online through the payment gateway on the Platform (using the methods it offers at checkout), or by bank transfer (NEFT, RTGS, IMPS or UPI) to our bank account held in our registered name: account name ${details.bankAccount.accountName}, account number ${details.bankAccount.accountNumber}, IFSC ${details.bankAccount.ifsc}. We will never ask you to pay into any other account. We do not accept cash.`,
          `After a bank transfer, send a screenshot of the payment to our WhatsApp number ${details.whatsappNumber}. We verify the payment and confirm it by e-mail. A payment claim we cannot confirm within ${MANUAL_PAYMENT_EXPIRY_DAYS} days is dismissed, and any money we did receive is returned to the account it came from.`,
          'Payments must come from your own bank account or payment instrument; we return payments made by anyone else to where they came from.',
          'SEBI has set up an optional Centralised Fee Collection Mechanism (CeFCoM), operated by BSE, through which clients can pay research analysts. Using it is optional for you and for us; if we offer it, the payment page says so.',
        ],
      },
      {
        id: 'acceptable-use',
        heading: 'Acceptable use',
        blocks: [
          'You must not:',
          {
            list: [
              'use the Platform for anything unlawful or fraudulent;',
              'try to get unauthorised access to the Platform, other accounts or our systems, or interfere with, probe or overload them;',
              'use bots, scrapers or other automated means to access the Platform or copy its content;',
              'pretend to be someone else, or upload documents that are not yours;',
              'upload viruses or other harmful code;',
              'use our research to spread rumours or to manipulate the price of any security.',
            ],
          },
        ],
      },
      {
        id: 'communication',
        heading: 'Communication',
        blocks: [
          'We communicate with you in English: by e-mail to the address in your profile, by SMS to your registered mobile number, and on the Platform. Messages we send to those addresses are treated as received by you.',
          `You can contact us at ${supportEmail} or on ${supportPhone} (${workingHours}). Any notice to us under these Terms must be sent to ${supportEmail}.`,
          'We will never ask for the login details or one-time passwords of your trading, demat or bank accounts, and our team will never ask for the sign-in code we send you. Do not share them with anyone.',
        ],
      },
      {
        id: 'affiliate-marketing',
        heading: 'Affiliate marketing',
        blocks: [
          'We do not pay affiliates, influencers or other third parties to promote our research services, and we do not receive commissions for referring you to brokers or other product providers. Our advertisements follow the advertisement code SEBI has set for research analysts, including approval before publication as that code requires.',
          'If this changes, we will disclose the arrangement on our [Disclosure](/disclosure) page before it begins.',
        ],
      },
      {
        id: 'privacy',
        heading: 'Privacy',
        blocks: [
          'We process your personal data as our [Privacy Policy](/privacy-policy) describes, in line with the Digital Personal Data Protection Act, 2023.',
          `We keep your account data for ${ACCOUNT_DATA_RETENTION_DAYS} days after your account is closed or these Terms end, and then delete it, except the records that SEBI regulations or other laws require us to keep for longer (such as KYC records, your consent to these Terms, payment records, the research provided to you and our communications with you). Those we keep for the period the law requires and then delete.`,
        ],
      },
      {
        id: 'assumption-of-risk',
        heading: 'Assumption of risk',
        blocks: [
          SEBI_STANDARD_WARNING,
          'Research is an opinion based on the information available when it was prepared. Prices of securities can go down as well as up, past performance does not indicate future results, and you may lose some or all of the money you invest. Derivatives such as futures and options carry a higher risk of loss.',
          'Each research service states its risk level (Premium services: HIGH; Premium+ services: VERY HIGH); see our [Disclaimer](/disclaimer). You decide whether to act on any research, and you bear the results of your investment decisions.',
        ],
      },
      {
        id: 'sale-of-services',
        heading: 'Sale of services',
        blocks: [
          'A subscription starts when we confirm your payment and ends after the number of days stated with its price; its end date is shown on your Subscriptions page. If you renew a subscription before it ends, the new period starts when the current one ends, so you lose no days. Subscriptions do not renew automatically.',
          'Research is delivered in the way described for each service.',
          `When a refund is due under these Terms (see "Refund policy"), we pay it within ${REFUND_PAYMENT_DAYS} days of the date the subscription ended, to the bank account or payment instrument you paid from.`,
        ],
      },
      {
        id: 'reverse-engineering',
        heading: 'Reverse engineering',
        blocks: [
          'You may not decompile, disassemble or reverse engineer the Platform, try to derive its source code, or copy it to build a competing service, except to the extent the law allows despite this restriction.',
        ],
      },
      {
        id: 'data-loss',
        heading: 'Data loss',
        blocks: [
          'We keep backups and take reasonable security measures, but the Platform is not a storage service: keep your own copies of the reports and invoices you want to retain. If data is lost through our fault, we will restore it from our backups where we can. This does not reduce our duty to keep records under SEBI regulations or under our Privacy Policy.',
        ],
      },
      {
        id: 'indemnification',
        heading: 'Indemnification',
        blocks: [
          "You will compensate us for losses, costs and third parties' claims that arise from your breach of these Terms, your misuse of the Platform or of the research (including sharing or reselling it), or your breach of any law or of anyone else's rights. This does not apply to anything caused by our own breach, negligence or wilful misconduct.",
        ],
      },
      {
        id: 'spam',
        heading: 'Spam',
        blocks: [
          'We send you service messages (such as sign-in codes, payment confirmations and the research you subscribed to) and, only if you agree to them separately, marketing messages, which you can stop at any time. We do not sell or rent your contact details to anyone.',
          'You must not use the Platform to send unsolicited messages, and you must not forward our research to groups or mailing lists.',
        ],
      },
      {
        id: 'third-party-links',
        heading: 'Third-party links',
        blocks: [
          "The Platform links to other websites, such as SEBI's SCORES, the SMART ODR portal and our payment gateway. We do not control them and are not responsible for their content or practices; their own terms and privacy policies apply. Links to other websites open in a new tab.",
        ],
      },
      {
        id: 'modification',
        heading: 'Modification of these Terms',
        blocks: [
          `We may change these Terms to reflect changes in the law, in SEBI's requirements or in our services. We will tell you about a change at least ${TERMS_CHANGE_NOTICE_DAYS} days before it takes effect, by e-mail and on the Platform, unless a law or SEBI requires it to take effect sooner. The terms SEBI prescribes (including the MITC) change only as SEBI changes them.`,
          'Each version of these Terms has its own version identifier. From the day a new version takes effect we ask you to accept it before your next payment; until you do, you cannot buy or renew a subscription. If you do not accept a change, you can instead end your subscriptions, before or after the change takes effect, and receive a proportionate refund as set out in "Refund policy".',
        ],
      },
      {
        id: 'entire-agreement',
        heading: 'Entire agreement',
        blocks: [
          'These Terms, together with the policies they refer to and our [Investor Charter](/investor-charter), are the whole agreement between you and us about the Platform and the research services, and replace any earlier understanding. Nothing in them limits any right you have under SEBI regulations or circulars, which prevail over anything in these Terms that is inconsistent with them.',
        ],
      },
      {
        id: 'service-interruptions',
        heading: 'Service interruptions',
        blocks: [
          `We aim to keep the Platform available, but it may be unavailable at times for maintenance, upgrades or reasons outside our control, such as failures of networks, payment gateways or hosting providers. If an interruption stops us from delivering a research service for a substantial part of your subscription, tell us at ${supportEmail}: we will extend your subscription by the time lost or refund the proportionate fee for it, as you choose.`,
        ],
      },
      {
        id: 'termination',
        heading: 'Termination',
        blocks: [
          `You may end a subscription at any time with End subscription on your Subscriptions page, or end it or close your account by writing to ${supportEmail} from the e-mail address in your profile.`,
          "We may end your subscription or suspend your account if you seriously breach these Terms (for example by sharing or reselling the research, giving false KYC information or paying from someone else's account), if the law or SEBI requires us to, or if we stop providing the service. Unless we must act at once, we will tell you the reason before we do so.",
          'Whoever ends a subscription early, you receive a proportionate refund of the fee for the unexpired period, as set out in "Refund policy" and in the MITC.',
          'Clauses that by their nature continue after termination (such as intellectual property, limitation of liability, indemnification, governing law and the keeping of records) continue to apply.',
        ],
      },
      {
        id: 'no-warranties',
        heading: 'No warranties',
        blocks: [
          'We prepare research with due care and diligence, but we do not guarantee any return or profit, or the accuracy or completeness of any research or recommendation, and no one may give such a guarantee on our behalf. Any scheme that promises assured returns is illegal. Apart from the duties we owe you under SEBI regulations and these Terms, the Platform and the research are provided as they are and as available.',
        ],
      },
      {
        id: 'limitation-of-liability',
        heading: 'Limitation of liability',
        blocks: [
          'Investment decisions are yours. We are not liable for any trading or investment loss, or any lost profit, that results from acting or not acting on our research.',
          'For any other claim relating to the Platform or the research services, our total liability to you is limited to the lesser of Rs. 1,000 and the fees you paid us in the six months before the event that gave rise to the claim.',
          'Nothing in this clause reduces any refund you are entitled to under these Terms, the MITC or SEBI regulations, or limits any liability that the law does not allow to be limited, such as liability for fraud or wilful misconduct.',
        ],
      },
      {
        id: 'refund-policy',
        heading: 'Refund policy',
        blocks: [
          'If your subscription ends before its end date, whether you end it or we do, we refund the proportionate fee for the unexpired period: the fee multiplied by the number of whole days (24 hours each) left, divided by the number of days bought, rounded down to the paisa; a renewal not yet started is refunded in full. We do not charge any cancellation or breakage fee. The days already used are not refunded.',
          `If SEBI suspends our registration for more than ${REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS} days or cancels it, we refund the fee for the period from the date the suspension or cancellation takes effect to the end of your subscription.`,
          `We pay refunds within ${REFUND_PAYMENT_DAYS} days: a payment made on the website back to the card or UPI account it came from, a bank transfer to the bank account you give us. Our [Refund Policy](/refund-policy) gives the details.`,
        ],
      },
      {
        id: 'grievances',
        heading: 'Grievance redressal and dispute resolution',
        blocks: [
          `${firstContactStep(details)} You can also reach us at ${supportEmail} or on ${supportPhone} (${workingHours}). We send you a reference number and the date by which we will resolve it. We try to resolve every complaint at once. As per applicable SEBI circulars, we resolve complaints about the service itself (such as a report not received, pages missing or a download not working) within ${SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS} business days, and every complaint within ${GRIEVANCE_RESOLUTION_DAYS} days of receiving it.`,
          `If you are not satisfied with our response, or we have not resolved your complaint within ${GRIEVANCE_RESOLUTION_DAYS} days, you can lodge it with SEBI on SCORES at ${SCORES_URL}. If you are still not satisfied, you can seek conciliation and arbitration online on the SMART ODR portal at ${SMART_ODR_URL}. Our [Grievance Redressal](/grievance-redressal) page has the details and the contacts of our officers.`,
          'Disputes are resolved through these mechanisms, through arbitration, or through any other mechanism that SEBI specifies.',
        ],
      },
      {
        id: 'governing-law',
        heading: 'Governing law and jurisdiction',
        blocks: [
          `These Terms are governed by the laws of India. Subject to the dispute resolution mechanisms of SEBI described in "Grievance redressal and dispute resolution", the courts at ${details.jurisdictionCity} have exclusive jurisdiction over any dispute arising from these Terms or the research services.`,
        ],
      },
      {
        id: 'general',
        heading: 'General provisions',
        blocks: [
          {
            list: [
              'Language: these Terms and all our communications with you are in English. If we provide a translation, the English version prevails.',
              'Severability: if a court or authority finds part of these Terms invalid, the rest remains in force.',
              'No waiver: if we do not enforce a right at once, we may still enforce it later.',
              'Transfer: you may not transfer your rights under these Terms. We will not transfer your subscription to anyone else without telling you first, and you may then end it with a proportionate refund.',
              'Events beyond control: neither of us is responsible for delays caused by events beyond reasonable control, such as natural disasters, epidemics, war or failures of public networks. Your right to a proportionate refund is not affected.',
              `Contact: questions about these Terms go to ${supportEmail}. Our registered office is at ${address}.`,
            ],
          },
        ],
      },
      minimumMandatoryTerms(details),
      mostImportantTermsAndConditions(details),
      consentSection(details),
    ],
  }
}

/** SEBI circular SEBI/HO/MIRSD/MIRSD-PoD-1/P/CIR/2025/004 of 8 January 2025, Annexure B, in plain English. */
function minimumMandatoryTerms(details: BusinessDetails): LegalSection {
  const { name, sebiRegistrationNumber } = details
  return {
    id: 'mandatory-terms',
    heading: "SEBI's minimum mandatory terms",
    blocks: [
      'SEBI requires the terms of every research analyst to include the following items (SEBI circular of 8 January 2025). They are set out here in plain English; where the wording SEBI prescribes differs, SEBI\'s wording applies. In these items "RA" means us, the research analyst.',
    ],
    sections: [
      {
        id: 'mandatory-availing',
        heading: 'Availing of the research services',
        blocks: [
          `By accepting delivery of the research services, you confirm that you have chosen to avail the research services of ${name}, SEBI registration number ${sebiRegistrationNumber}. The RA does not render any research service or charge any fee until you have consented to these Terms.`,
        ],
      },
      {
        id: 'mandatory-obligations',
        heading: 'Obligations of the research analyst',
        blocks: [
          'The RA complies with the SEBI Act, 1992, the RA Regulations and the circulars and guidelines SEBI issues under them, as in force from time to time, keeps your information confidential except where the law requires otherwise, and discloses its conflicts of interest.',
        ],
      },
      {
        id: 'mandatory-kyc',
        heading: 'Client information and KYC',
        blocks: [
          'You provide the information the RA needs to complete your KYC. The RA collects, stores, uploads and checks the KYC records of its fee-paying clients with a KYC Registration Agency, as SEBI requires.',
        ],
      },
      {
        id: 'mandatory-standard-terms',
        heading: 'Standard terms of service',
        blocks: [
          'Your consent is given in the words of the "Consent statement" at the end of these Terms. The RA declares that:',
          {
            list: [
              `it is registered with SEBI as a research analyst under the RA Regulations, with registration number ${sebiRegistrationNumber};`,
              'it has the registration and qualifications required to render the research services, and they are valid and subsisting;',
              'its research services do not conflict with or violate any law, rule, regulation, contract or other instrument that binds it;',
              `the maximum fee it may charge is ${FEE_CAP_PER_FAMILY_PER_YEAR} a year per family of client (individual and HUF clients who are not accredited investors);`,
              'its recommendations do not provide any assurance of returns.',
            ],
          },
        ],
      },
      {
        id: 'mandatory-payment',
        heading: 'Consideration and mode of payment',
        blocks: [
          'You pay the fees set out for each research service in the ways set out in "Payment and fees", never in cash.',
        ],
      },
      {
        id: 'mandatory-risk',
        heading: 'Risk factors',
        blocks: [
          `${SEBI_STANDARD_WARNING} Research does not guarantee any outcome; the risks are explained in "Assumption of risk" and in our [Disclaimer](/disclaimer).`,
        ],
      },
      {
        id: 'mandatory-conflicts',
        heading: 'Conflict of interest',
        blocks: [
          'The RA follows the requirements of the RA Regulations on conflicts of interest and discloses its conflicts on its [Disclosure](/disclosure) page and in its research reports.',
        ],
      },
      {
        id: 'mandatory-termination',
        heading: 'Termination of service and refund of fees',
        blocks: [
          `If SEBI suspends or cancels the RA's registration, the RA tells you and stops rendering the research services. If the suspension lasts more than ${REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS} days, or the registration is cancelled, the RA refunds the fee for the period from the date the suspension or cancellation takes effect to the end of your subscription. On any other early termination, the MITC below applies: you receive the proportionate fee for the unexpired period.`,
        ],
      },
      {
        id: 'mandatory-grievances',
        heading: 'Grievance redressal and dispute resolution',
        blocks: [
          `The RA resolves grievances about deficiencies in its service (such as a research report not received, pages missing or a download not working) within ${SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS} business days, and handles every other grievance as set out in "Grievance redressal and dispute resolution". Disputes may be resolved through arbitration or any other mechanism SEBI specifies, including the SMART ODR portal.`,
        ],
      },
      {
        id: 'mandatory-additional-clauses',
        heading: 'Additional clauses',
        blocks: [
          `The other clauses of these Terms are the RA's own. They may not contradict SEBI's rules, and the RA tells you about any change to them at least ${TERMS_CHANGE_NOTICE_DAYS} days before it takes effect.`,
        ],
      },
      {
        id: 'mandatory-dos-and-donts',
        heading: "Do's and don'ts for investors",
        blocks: ["Please read the Do's and Don'ts for investors in our [Investor Charter](/investor-charter)."],
      },
      {
        id: 'mandatory-mitc',
        heading: 'Most Important Terms and Conditions',
        blocks: [
          'The Most Important Terms and Conditions (MITC) below form part of these Terms. They also read on their own at [Most Important Terms and Conditions](/mitc).',
        ],
      },
      {
        id: 'mandatory-cefcom',
        heading: 'Optional Centralised Fee Collection Mechanism',
        blocks: [
          "SEBI's Centralised Fee Collection Mechanism (CeFCoM), operated by BSE, lets clients pay the fees of research analysts through a central platform. It is optional for both you and the RA.",
        ],
      },
    ],
  }
}

/** SEBI's standardised MITC for research services (17 February 2025), in plain English. */
export function mostImportantTermsAndConditions(details: BusinessDetails): LegalSection {
  return {
    id: 'mitc',
    heading: 'Most Important Terms and Conditions (MITC)',
    blocks: [
      'These are SEBI\'s standard Most Important Terms and Conditions for research services (SEBI circular of 17 February 2025), in plain English; where the standard text published by SEBI and the RAASB differs, that text applies. "RA" means us, the research analyst.',
    ],
    sections: [
      {
        id: 'mitc-no-trades',
        heading: 'Research services only',
        blocks: [
          'These terms and conditions, and your consent to them, are for the research services the RA provides. The RA cannot execute or carry out any trade (purchase or sale) on your behalf; do not allow the RA to do so.',
        ],
      },
      {
        id: 'mitc-fee-limit',
        heading: 'Fee limits',
        blocks: [
          `The fee the RA charges you is subject to the maximum limits SEBI or the RAASB prescribe from time to time, presently ${FEE_CAP_PER_FAMILY_PER_YEAR} a year per family of client for all research services of the RA, excluding statutory charges. This limit does not apply to non-individual clients or accredited investors.`,
        ],
      },
      {
        id: 'mitc-advance-fee',
        heading: 'Fees in advance',
        blocks: [
          'The RA may charge fees in advance, if you agree, for no longer than the period SEBI allows, presently one year (SEBI circular of 2 April 2025).',
        ],
      },
      {
        id: 'mitc-refund',
        heading: 'Refund on early termination',
        blocks: [
          'If the research services end before the end of the period you paid for, whether you end them or the RA does, you are entitled to a refund of the proportionate fee for the unexpired period.',
        ],
      },
      {
        id: 'mitc-payment-modes',
        heading: 'Modes of payment',
        blocks: [
          'Fees may be paid by cheque, online bank transfer, UPI and other banking channels. Cash is not allowed. You may also pay through the optional Centralised Fee Collection Mechanism (CeFCoM).',
        ],
      },
      {
        id: 'mitc-conflicts',
        heading: 'Conflicts of interest',
        blocks: [
          'The RA must abide by the regulations and circulars on conflicts of interest, disclose them to you, and treat you fairly.',
        ],
      },
      {
        id: 'mitc-assured-returns',
        heading: 'No assured returns',
        blocks: [
          'Any scheme that promises assured or guaranteed returns is prohibited. The RA does not guarantee returns, profits, the accuracy of its research or risk-free investment.',
        ],
      },
      {
        id: 'mitc-market-risk',
        heading: 'Market risk',
        blocks: [SEBI_STANDARD_WARNING],
      },
      {
        id: 'mitc-registration',
        heading: 'Registration is not a guarantee',
        blocks: [REGISTRATION_DISCLAIMER],
      },
      {
        id: 'mitc-grievances',
        heading: 'Grievances',
        blocks: [
          'If you have a grievance:',
          {
            list: [
              `Step 1: ${firstContactStep(details)} The [Grievance Redressal](/grievance-redressal) page has all our contacts.`,
              `Step 2: if the grievance is not resolved, lodge it on SEBI's SCORES portal at ${SCORES_URL}.`,
              `Step 3: if you are still not satisfied, use the SMART ODR portal at ${SMART_ODR_URL}.`,
            ],
          },
        ],
      },
      {
        id: 'mitc-credentials',
        heading: 'Your credentials',
        blocks: [
          'The RA will never ask for the login details or one-time passwords (OTPs) of your trading, demat or bank accounts. Never share them with anyone.',
        ],
      },
    ],
  }
}

/** The standard consent statement (January 2025 circular), in the first person. */
export function consentStatement(details: BusinessDetails): string[] {
  return [
    `I have read and understood the terms and conditions applicable to the research services provided by ${details.name}, including the fee structure and the Most Important Terms and Conditions.`,
    'I am subscribing to the research services for my own benefit and consumption, and any reliance placed on the research reports provided by the research analyst will be as per my own judgement and assessment.',
    'I understand that any investment made on the basis of the recommendations in the research reports is subject to market risk, that the recommendations do not provide any assurance of returns, and that there is no recourse to claim any losses incurred on investments made on the basis of the recommendations in the research reports.',
  ]
}

function consentSection(details: BusinessDetails): LegalSection {
  return { id: 'consent', heading: 'Consent statement', blocks: consentStatement(details) }
}
