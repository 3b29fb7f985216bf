// No Zod here: the legal pages quote SEBI_FEE_CAP_PAISE (app/content/legal/rules.ts) and stay light.
import { PAISE_PER_RUPEE } from './money'

/** SEBI's cap on the fees one family (individual and HUF clients) pays a research analyst: Rs 1,51,000 a year. */
export const SEBI_FEE_CAP_PAISE = 151_000 * PAISE_PER_RUPEE

/**
 * Which year the cap counts: the 12 months before now (SEBI's wording, the default), or the Indian
 * financial year (1 April to 31 March), should the analyst's compliance officer read it so.
 */
export const FEE_CAP_WINDOWS = ['rolling-12-months', 'financial-year'] as const
export type FeeCapWindow = (typeof FEE_CAP_WINDOWS)[number]

/** Clients outside the cap, as an admin marks them (users.fee_cap_exemption). */
export const FEE_CAP_EXEMPTIONS = ['ACCREDITED_INVESTOR', 'NON_INDIVIDUAL'] as const
export type FeeCapExemption = (typeof FEE_CAP_EXEMPTIONS)[number]

export const FEE_CAP_EXEMPTION_LABELS: Record<FeeCapExemption, string> = {
  ACCREDITED_INVESTOR: 'Accredited investor',
  NON_INDIVIDUAL: 'Non-individual client',
}

export const FEE_CAP_EXEMPTION_REASON_MAX_LENGTH = 500
