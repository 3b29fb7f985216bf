/**
 * A PAN as pages that only display it show it: the first five characters, four stars, the last
 * (ABCPE****F). Only the admin's customer page and the forms where the customer types it show it whole.
 */
export function maskPan(pan: string): string
export function maskPan(pan: string | null): string | null
export function maskPan(pan: string | null): string | null {
  if (pan === null) return null
  if (pan.length < 6) return '*'.repeat(pan.length)
  return `${pan.slice(0, 5)}****${pan.slice(-1)}`
}
