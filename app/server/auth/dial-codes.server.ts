import { countries } from 'countries-list'

/** One choice in the country-code selector: `value` is what the form posts. */
export type DialCodeOption = { value: string; label: string }

/**
 * Every dial code countries-list has for every country. A country with one code is a single option
 * posted as its ISO code ("IN"); one with several (Kosovo's +383 and the older +377, +381 and +386;
 * the Dominican Republic's and Puerto Rico's +1 area codes) gets an option per code, posted as
 * "XK-383", so the number goes out with the code the person chose.
 */
const DIAL_CODES_BY_VALUE = new Map(
  Object.entries(countries).flatMap(([country, { name, phone }]) =>
    phone.map((dialCode) => {
      const value = phone.length === 1 ? country : `${country}-${dialCode}`
      return [value, { value, label: `${name} (+${dialCode})`, dialCode: String(dialCode) }] as const
    }),
  ),
)

/** By label ("India (+91)"). Built once; the page renders it as <option>s. */
export const DIAL_CODE_OPTIONS: DialCodeOption[] = [...DIAL_CODES_BY_VALUE.values()]
  .map(({ value, label }) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label, 'en'))

/** The dial code of an offered option's value ("IN" -> "91", "XK-383" -> "383"); null for anything else. */
export function dialCodeFor(value: string): string | null {
  return DIAL_CODES_BY_VALUE.get(value)?.dialCode ?? null
}
