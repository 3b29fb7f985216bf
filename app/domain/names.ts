/**
 * A person's name as we write it to them: one typed all in lower or all in upper case ("asha verma",
 * "ASHA VERMA") in title case, each part after a space, hyphen or apostrophe capitalised ("D'Souza
 * Mary-Ann"); one typed in mixed case kept as typed ("Asha McDonald"). Spaces are tidied either way.
 */
export function personName(name: string | null | undefined): string {
  const tidy = (name ?? '').trim().replace(/\s+/g, ' ')
  if (tidy !== tidy.toLowerCase() && tidy !== tidy.toUpperCase()) return tidy
  return tidy
    .toLowerCase()
    .replace(/(^|[\s'’-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
}
