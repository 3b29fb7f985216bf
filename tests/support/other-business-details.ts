import type { BusinessDetails } from '~/domain/business-details'
import { parseBusinessDetails } from '~/server/business.server'

/** Values unlike the demo ones, so a page that hard-codes a demo value fails. */
export const OTHER_BUSINESS_DETAILS: BusinessDetails = parseBusinessDetails(
  {
    BUSINESS_NAME: 'Kavya Iyer Research',
    SEBI_REGISTRATION_NUMBER: 'INH000098765',
    BUSINESS_ADDRESS: '4 Lake View Road, Kochi, Kerala 682001',
    SUPPORT_PHONE: '+91 00000 11111',
    SUPPORT_EMAIL: 'help@kavya.example.in',
    WHATSAPP_NUMBER: '+91 00000 22222',
    BANK_ACCOUNT_NUMBER: '987654321098',
    BANK_IFSC: 'TEST0004321',
    BANK_ACCOUNT_NAME: 'Kavya Iyer',
    PRINCIPAL_OFFICER_NAME: 'Kavya Iyer',
    PRINCIPAL_OFFICER_EMAIL: 'kavya@kavya.example.in',
    COMPLIANCE_OFFICER_NAME: 'Arjun Nair',
    COMPLIANCE_OFFICER_PHONE: '+91 00000 33333',
    COMPLIANCE_OFFICER_EMAIL: 'arjun@kavya.example.in',
    JURISDICTION_CITY: 'Kochi',
    DISCLOSURE_DISCIPLINARY_HISTORY: 'No penalties have been imposed on Kavya Iyer Research.',
    DISCLOSURE_AI_TOOLS: 'Kavya Iyer Research uses no AI tools.',
    SEBI_REGISTRATION_DATE: '2019-08-14',
    BSE_ENLISTMENT_NUMBER: 'BSE-RA-09876',
    GRIEVANCE_OFFICER_NAME: 'Farah Siddiqui',
    GRIEVANCE_OFFICER_PHONE: '+91 00000 66666',
    GRIEVANCE_OFFICER_EMAIL: 'grievances@kavya.example.in',
    DISCLOSURE_ASSOCIATES: 'Kavya Iyer Research has no associates.',
    COMPLIANCE_AUDIT_FINANCIAL_YEAR: '2025-26',
    COMPLIANCE_AUDIT_COMPLETED_ON: '2026-09-12',
    COMPLIANCE_AUDIT_ADVERSE_FINDINGS: 'None.',
  },
  { demoMode: true },
)
