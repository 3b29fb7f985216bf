export const MS_PER_DAY = 24 * 60 * 60_000
export const INDIA_TIME_ZONE = 'Asia/Kolkata'
export const MINIMUM_AGE_YEARS = 18

const indiaDateParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: INDIA_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
})

/** "DD-MM-YYYY" of the instant's calendar date in India. */
export function formatIndiaDate(instant: Date): string {
  const parts = Object.fromEntries(indiaDateParts.formatToParts(instant).map((part) => [part.type, part.value]))
  return `${parts.day}-${parts.month}-${parts.year}`
}

const indiaLongDate = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
})

/** "29 November 2026": the instant's calendar date in India, as a legal document's date line writes it. */
export function formatIndiaLongDate(instant: Date): string {
  const parts = Object.fromEntries(indiaLongDate.formatToParts(instant).map((part) => [part.type, part.value]))
  return `${parts.day} ${parts.month} ${parts.year}`
}

/** The instant an India calendar date ("YYYY-MM-DD") begins: midnight IST. */
export function indiaMidnight(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00+05:30`)
}

/** "YYYY-MM-DD" of the instant's calendar date in India (the form of an <input type="date">). */
export function indiaIsoDate(instant: Date): string {
  const [day, month, year] = formatIndiaDate(instant).split('-')
  return `${year}-${month}-${day}`
}

/**
 * The latest date of birth of someone who is at least 18 today (India's calendar), as YYYY-MM-DD:
 * the picker's max and the server's check.
 */
export function latestAdultBirthDate(today: Date): string {
  const [year, month, day] = indiaIsoDate(today).split('-').map(Number) as [number, number, number]
  const birthYear = year - MINIMUM_AGE_YEARS
  const candidate = new Date(Date.UTC(birthYear, month - 1, day))
  // On 29 February, eighteen years back has no 29 February (Date.UTC rolls it to 1 March): use 28 February.
  const rolledOver = candidate.getUTCMonth() !== month - 1
  const latest = rolledOver ? new Date(Date.UTC(birthYear, month - 1, 28)) : candidate
  return latest.toISOString().slice(0, 10)
}

const indiaDateTimeParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: INDIA_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** "DD-MM-YYYY HH:MM IST" in India time; format on the server only (clients' ICU data differ). */
export function formatIndiaDateTime(instant: Date): string {
  const parts = Object.fromEntries(indiaDateTimeParts.formatToParts(instant).map((part) => [part.type, part.value]))
  return `${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute} IST`
}

/** "DD-MM-YYYY" of a calendar date written "YYYY-MM-DD", as formatIndiaDate writes it; no time zone, no Intl. */
export function formatIsoDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-')
  return `${day}-${month}-${year}`
}

/** "YYYY-MM-DD" of a `@db.Date` value, which comes back as midnight UTC of that day. */
export function calendarDateOf(dbDate: Date): string {
  return dbDate.toISOString().slice(0, 10)
}
