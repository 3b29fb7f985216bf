export const MS_PER_MINUTE = 60_000
export const MS_PER_HOUR = 60 * MS_PER_MINUTE
export const MS_PER_DAY_EXACT = 24 * MS_PER_HOUR

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`

/** A span for people, to its two largest units, rounded down: "6 days 23 hours", "2 hours 5 minutes", "0 minutes". */
export function formatDuration(ms: number): string {
  const span = Math.max(0, ms)
  const days = Math.floor(span / MS_PER_DAY_EXACT)
  const hours = Math.floor((span % MS_PER_DAY_EXACT) / MS_PER_HOUR)
  const minutes = Math.floor((span % MS_PER_HOUR) / MS_PER_MINUTE)
  if (days > 0) return hours > 0 ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day')
  if (hours > 0) return minutes > 0 ? `${plural(hours, 'hour')} ${plural(minutes, 'minute')}` : plural(hours, 'hour')
  return plural(minutes, 'minute')
}
