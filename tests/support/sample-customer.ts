import { randomInt } from 'node:crypto'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const letter = () => LETTERS[randomInt(26)]!

// The customer the tests sign up, whether through the pages, the API or tests/support/sessions.ts.

/** The profile wizard's first step as Asha Rao fills it in. */
export const ASHA_RAO = { name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCPE1234F' }

/** The smallest valid PNG, her PAN card image: a 1x1 transparent pixel. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

/** A mobile number no other test uses: 10 digits starting with 9. */
export function uniqueMobile(): string {
  return `9${String(randomInt(0, 1e9)).padStart(9, '0')}`
}

/**
 * An individual's PAN no other test uses (one account per PAN): 3 letters, P, a letter, 4 digits,
 * a letter. Asha Rao's own, ABCPE1234F, is for tests that save it once.
 */
export function uniquePan(): string {
  return `${letter()}${letter()}${letter()}P${letter()}${String(randomInt(0, 1e4)).padStart(4, '0')}${letter()}`
}
