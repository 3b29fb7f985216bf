import type { BusinessDetails } from '~/domain/business-details'
import { officialTextBlocks } from '~/domain/official-texts'
import type { LegalDocument } from './document'
import { firstContactStep, SCORES_URL, SMART_ODR_URL } from './regulatory'
import { GRIEVANCE_RESOLUTION_DAYS, SEBI_OIAE_ADDRESS } from './rules'

/**
 * The investor charter for research analysts in the structure of SEBI circular
 * SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/81 of 2 June 2025 (sections A to F), which replaced the 2021
 * charter and its 30-day resolution period.
 */
export function investorCharter(details: BusinessDetails, officialText?: string): LegalDocument {
  if (officialText) return officialDocument('Investor Charter', officialText, 'SEBI prescribes for research analysts')
  const { name, sebiRegistrationNumber, supportEmail, supportPhone, workingHours } = details
  return {
    title: 'Investor Charter',
    dateLine:
      'Investor charter for research analysts, as per SEBI circular SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/81 dated 2 June 2025',
    intro: [
      `${name} is a research analyst registered with SEBI (registration number ${sebiRegistrationNumber}). This charter sets out what you can expect from us as a research analyst, your rights, and what is expected of you. We share it with every client when they join.`,
      'This page is our summary of the Investor Charter SEBI prescribes for research analysts, in its structure; until we publish the official text here, the text SEBI published prevails where they differ.',
    ],
    sections: [
      {
        id: 'vision-and-mission',
        heading: 'A. Vision and mission',
        blocks: [
          'Vision: invest with knowledge and safety.',
          'Mission: every investor should be able to invest in the right investment products based on their needs, manage and monitor them to meet their goals, access reports and enjoy financial wellness.',
        ],
      },
      {
        id: 'business-transacted',
        heading: 'B. Details of business transacted by the research analyst with respect to investors',
        blocks: [
          {
            list: [
              'To publish research reports based on our research activities.',
              'To provide an independent and unbiased view on securities.',
              'To offer unbiased recommendations, disclosing any financial interest in the recommended securities.',
              'To provide research recommendations based on analysis of publicly available information and known observations.',
              'To conduct an audit every year.',
              'To make sure our advertisements follow the advertisement code for research analysts.',
              'To keep records of our interactions with all clients, including prospective clients before they join, wherever any conversation about the research services has taken place.',
            ],
          },
        ],
      },
      {
        id: 'services',
        heading: 'C. Details of services provided to investors (no indicative timelines)',
        blocks: [
          'Onboarding of clients:',
          {
            list: [
              'sharing the terms and conditions of the research services with you and taking your consent before any service is given or any fee is charged;',
              'completing the KYC (know-your-client) of fee-paying clients.',
            ],
          },
          'Disclosures to clients:',
          {
            list: [
              'information about our business, our disciplinary history, the terms and conditions of the research services, our associates, and the risks and conflicts of interest, if any;',
              'the extent to which we use artificial intelligence tools in providing research services;',
              'when we distribute research by a third party, any material conflict of interest of its provider, or the web address of its disclosures.',
            ],
          },
          'Our other commitments:',
          {
            list: [
              'to distribute research reports and recommendations to clients without discrimination;',
              'to keep research reports and recommendations confidential until they are made public;',
              "to respect clients' data privacy rights and take appropriate measures to protect their confidential information from unauthorised use;",
              'to disclose the timelines for providing research services and to keep to them;',
              'to give clear guidance and adequate caution notices when recommending complex and high-risk financial products or services;',
              'to treat all clients with honesty and integrity;',
              'to keep the information clients share with us confidential, unless a law, a regulation or a court requires us to disclose it.',
            ],
          },
        ],
      },
      {
        id: 'grievance-redressal',
        heading: 'D. Details of the grievance redressal mechanism and how to access it',
        blocks: [
          `1. Complaints to us: ${firstContactStep(details)} You can also reach us at ${supportEmail} or on ${supportPhone} (${workingHours}). We send you a reference number and the date by which we will resolve it. We strive to resolve every complaint immediately, and in any case within ${GRIEVANCE_RESOLUTION_DAYS} days of receiving it. The [Grievance Redressal](/grievance-redressal) page lists our officers and their contacts.`,
          `2. Complaints on SCORES or to the RAASB: you can lodge a complaint on SCORES 2.0, SEBI's web-based centralised system for time-bound redressal of grievances, at ${SCORES_URL}. Complaints lodged on SCORES are reviewed at two levels: first by the designated body, the Research Analyst Administration and Supervisory Body (RAASB, presently BSE Limited), and then by SEBI. You can also write to the RAASB at the e-mail address it has designated for complaints.`,
          `3. Online dispute resolution: if you are not satisfied with the resolution, you can start dispute resolution (conciliation and then arbitration) on the SMART ODR portal at ${SMART_ODR_URL}.`,
          `4. Physical complaints: you can send a complaint in writing to the ${SEBI_OIAE_ADDRESS}.`,
        ],
      },
      {
        id: 'rights-of-investors',
        heading: 'E. Rights of investors',
        blocks: [
          {
            list: [
              'Right to privacy and confidentiality.',
              'Right to transparent practices.',
              'Right to fair and equitable treatment.',
              'Right to adequate information.',
              'Right to initial and continuing disclosure, including all statutory and regulatory disclosures.',
              'Right to fair and true advertisement.',
              'Right to be aware of the service parameters and turnaround times.',
              'Right to be heard and to have grievances redressed satisfactorily and on time.',
              'Right to exit from the research services in accordance with the terms and conditions agreed with the research analyst.',
              'Right to receive clear guidance and caution notices when dealing in complex and high-risk financial products and services.',
              'Additional rights for vulnerable consumers: the right to get access to services in a suitable manner, including if differently abled.',
              'Right to give feedback on the financial products and services used.',
              'Right against coercive, unfair and one-sided clauses in financial agreements.',
            ],
          },
        ],
      },
      {
        id: 'dos-and-donts',
        heading: "F. Expectations from investors (responsibilities of investors): do's and don'ts",
        blocks: [],
        sections: [
          {
            id: 'dos',
            heading: "Do's",
            blocks: [
              {
                list: [
                  'Always deal with SEBI-registered research analysts.',
                  'Make sure the research analyst has a valid registration certificate.',
                  "Check the SEBI registration number; SEBI's website (https://www.sebi.gov.in) lists all registered research analysts.",
                  'Always pay attention to the disclosures in research reports before investing.',
                  'Pay your research analyst through banking channels only, and keep signed receipts with the details of your payments. You may pay fees through the Centralised Fee Collection Mechanism (CeFCoM) of the RAASB if the research analyst has opted for it.',
                  'Before buying securities or applying in a public offer, check the research recommendation given by your research analyst.',
                  'Ask all relevant questions and clear your doubts with your research analyst before acting on a recommendation.',
                  'Seek clarification and guidance on research recommendations, especially those involving complex and high-risk financial products and services.',
                  'Remember that you have the right to stop using the research services as per the terms and conditions agreed with the research analyst.',
                  'Remember that you have the right to give feedback to your research analyst on the services you received.',
                  'Remember that you are not bound by any clause in the terms of a research analyst that contravenes any regulatory provision.',
                  'Inform SEBI of any research analyst offering assured or guaranteed returns.',
                ],
              },
            ],
          },
          {
            id: 'donts',
            heading: "Don'ts",
            blocks: [
              {
                list: [
                  'Do not give money to a research analyst to invest for you.',
                  "Don't fall for luring advertisements or market rumours.",
                  'Do not be drawn by limited-period discounts, incentives, gifts or similar offers from a research analyst.',
                  'Do not share the login details or passwords of your trading, demat or bank accounts with the research analyst.',
                ],
              },
            ],
          },
        ],
      },
    ],
  }
}

/**
 * A standard text SEBI or the RAASB prescribes, as the operator supplied it (OFFICIAL_TEXTS_DIR): the words as given,
 * paragraphs and lists, under our title.
 */
export function officialDocument(title: string, officialText: string, prescribedBy: string): LegalDocument {
  return {
    title,
    dateLine: `The official text ${prescribedBy}, as published`,
    intro: officialTextBlocks(officialText),
    sections: [],
  }
}
