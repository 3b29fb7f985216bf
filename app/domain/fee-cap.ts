import { z } from 'zod'
import { PAISE_PER_RUPEE } from './money'
import { plainText } from './plain-text'

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

const REASON_MESSAGE = 'Give the reason, such as the accreditation certificate or the entity and its registration.'

/** The admin's two buttons on a customer's page: mark exempt from the fee cap (with a reason), or remove the mark. */
export const FeeCapExemptionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('fee-cap-exempt'),
    exemption: z.enum(FEE_CAP_EXEMPTIONS, { error: 'Choose accredited investor or non-individual client.' }),
    reason: plainText(z.string({ error: REASON_MESSAGE }), { multiLine: true })
      .trim()
      .min(3, REASON_MESSAGE)
      .max(
        FEE_CAP_EXEMPTION_REASON_MAX_LENGTH,
        `Keep the reason under ${FEE_CAP_EXEMPTION_REASON_MAX_LENGTH} characters.`,
      ),
  }),
  z.object({ intent: z.literal('fee-cap-unexempt') }),
])
export type FeeCapExemptionChange = z.infer<typeof FeeCapExemptionSchema>
