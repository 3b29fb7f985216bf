import { z } from 'zod'
import { advertisingCodeRefusal } from './advertising-code'
import { plainText } from './plain-text'
import { PAISE_PER_RUPEE } from './money'
import { RISK_LEVELS, type RiskLevel } from './risk-levels'

/**
 * The limits of a service the team can sell. The price cap is SEBI's fee cap per family per year
 * (Rs. 1,51,000, January 2025) and the longest duration the one year SEBI lets a research analyst
 * bill in advance (April 2025), so no single service can break either rule.
 */
export const SERVICE_LIMITS = {
  nameMin: 3,
  nameMax: 80,
  descriptionLinesMax: 10,
  /** The whole description, line breaks not counted: a line may be as long as the admin likes and wraps where shown. */
  descriptionMax: 2_000,
  priceRupeesMax: 151_000,
  durationDaysMax: 365,
  deliveryMin: 10,
  deliveryMax: 300,
} as const

/** What is said of a service is an advertisement: the code's forbidden wordings are refused on the field (advertising-code.ts). */
function refuseAdvertisingCodeWording(text: string, context: z.RefinementCtx) {
  const refusal = advertisingCodeRefusal(text)
  if (refusal) context.addIssue({ code: 'custom', message: refusal })
}

const RUPEES_PATTERN = /^\d{1,3}(,?\d{2,3})*(\.\d{1,2})?$|^\d+(\.\d{1,2})?$/

/** What the admin's service form posts: the price in rupees as typed ("2,999" or "2999.50"), description lines in one textarea. */
export const ServiceFormSchema = z.object({
  name: plainText(z.string({ error: 'Enter the name.' }))
    .trim()
    .min(SERVICE_LIMITS.nameMin, `The name needs at least ${SERVICE_LIMITS.nameMin} characters.`)
    .max(SERVICE_LIMITS.nameMax, `The name can have at most ${SERVICE_LIMITS.nameMax} characters.`)
    .superRefine(refuseAdvertisingCodeWording),
  description: plainText(z.string(), { multiLine: true })
    .default('')
    .transform((text) =>
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .pipe(
      // Checked on the list as a whole, so a refusal is the description field's, never a line's
      // (Conform shows errors by field name; one at "description[0]" would show nowhere).
      z
        .array(z.string())
        .max(SERVICE_LIMITS.descriptionLinesMax, `At most ${SERVICE_LIMITS.descriptionLinesMax} description lines.`)
        .refine((lines) => lines.join('').length <= SERVICE_LIMITS.descriptionMax, {
          message: `The description can have at most ${SERVICE_LIMITS.descriptionMax.toLocaleString('en-IN')} characters.`,
        })
        .superRefine((lines, context) => refuseAdvertisingCodeWording(lines.join('\n'), context)),
    ),
  price: z
    .string({ error: 'Enter the price in rupees.' })
    .trim()
    .regex(RUPEES_PATTERN, 'Enter the price in rupees, like 2999 or 2,999.50.')
    .transform((text) => Math.round(Number(text.replace(/,/g, '')) * PAISE_PER_RUPEE))
    .pipe(
      z
        .number()
        .int()
        .min(PAISE_PER_RUPEE, 'The price must be at least Rs. 1.')
        .max(
          SERVICE_LIMITS.priceRupeesMax * PAISE_PER_RUPEE,
          `The price can be at most Rs. 1,51,000 (SEBI's yearly fee cap per family).`,
        ),
    ),
  riskLevel: z.enum(RISK_LEVELS, { error: 'Choose the risk level of this research.' }),
  delivery: plainText(z.string({ error: 'Say how and how often the research is delivered.' }))
    .trim()
    .min(SERVICE_LIMITS.deliveryMin, 'Say how and how often the research is delivered.')
    .max(SERVICE_LIMITS.deliveryMax, `Say it in at most ${SERVICE_LIMITS.deliveryMax} characters.`)
    .superRefine(refuseAdvertisingCodeWording),
  durationDays: z.coerce
    .number({ error: 'Enter the duration in whole days.' })
    .int('Enter the duration in whole days.')
    .min(1, 'The duration must be at least 1 day.')
    .max(
      SERVICE_LIMITS.durationDaysMax,
      `The duration can be at most ${SERVICE_LIMITS.durationDaysMax} days (fees may be taken at most a year in advance).`,
    ),
})

/** A service as the admin defined it: price in paise. */
export type ServiceForm = {
  name: string
  description: string[]
  pricePaise: number
  durationDays: number
  riskLevel: RiskLevel
  /** How and how often the research is delivered. */
  delivery: string
}

export type ServiceFormErrors = Partial<Record<keyof z.input<typeof ServiceFormSchema>, string[]>>

/** The parsed form as the service it defines (the form's price is in paise once parsed). */
export function serviceFromForm({
  name,
  description,
  price,
  durationDays,
  riskLevel,
  delivery,
}: z.output<typeof ServiceFormSchema>): ServiceForm {
  return { name, description, pricePaise: price, durationDays, riskLevel, delivery }
}

/** The form's fields with their errors, or the parsed service: prices in paise, description as lines. */
export function parseServiceForm(
  fields: Record<string, FormDataEntryValue | null>,
): { ok: true; service: ServiceForm } | { ok: false; errors: ServiceFormErrors } {
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : undefined)
  const parsed = ServiceFormSchema.safeParse({
    name: text('name'),
    description: text('description'),
    price: text('price'),
    riskLevel: text('riskLevel') === '' ? undefined : text('riskLevel'),
    delivery: text('delivery'),
    durationDays: text('durationDays') === '' ? undefined : text('durationDays'),
  })
  if (parsed.success) return { ok: true, service: serviceFromForm(parsed.data) }
  return { ok: false, errors: z.flattenError(parsed.error).fieldErrors as ServiceFormErrors }
}

/** 299900 -> "2999", 299950 -> "2999.50": how the form shows a stored price for editing. */
export function priceForForm(pricePaise: number): string {
  const rupees = Math.floor(pricePaise / PAISE_PER_RUPEE)
  const paise = pricePaise % PAISE_PER_RUPEE
  return paise === 0 ? String(rupees) : `${rupees}.${String(paise).padStart(2, '0')}`
}
