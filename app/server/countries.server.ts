import { countries } from 'countries-list'

export type DialCodeOption = { country: string; label: string }

const byCountry = new Map(
  Object.entries(countries)
    .filter(([, country]) => country.phone.length > 0)
    .map(([code, country]) => [code, { name: country.name, dialCode: String(country.phone[0]) }]),
)

/** Every country with its dialling code, by name: "India (+91)". Built once; the page renders it as <option>s. */
export const DIAL_CODE_OPTIONS: DialCodeOption[] = [...byCountry.entries()]
  .map(([country, { name, dialCode }]) => ({ country, label: `${name} (+${dialCode})` }))
  .sort((a, b) => a.label.localeCompare(b.label, 'en'))

export function dialCodeFor(country: string): string | null {
  return byCountry.get(country)?.dialCode ?? null
}
