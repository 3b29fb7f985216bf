import { describe, expect, it } from 'vitest'
import { formatDuration, MS_PER_DAY_EXACT, MS_PER_HOUR, MS_PER_MINUTE } from '~/domain/durations'

describe('duration units', () => {
  it('are a minute, an hour and a day in milliseconds', () => {
    expect(MS_PER_MINUTE).toBe(60 * 1000)
    expect(MS_PER_HOUR).toBe(60 * 60 * 1000)
    expect(MS_PER_DAY_EXACT).toBe(24 * 60 * 60 * 1000)
  })
})

describe('formatDuration', () => {
  it('shows the two largest units, rounded down', () => {
    expect(formatDuration(7 * MS_PER_DAY_EXACT - 1)).toBe('6 days 23 hours')
    expect(formatDuration(MS_PER_DAY_EXACT)).toBe('1 day')
    expect(formatDuration(2 * MS_PER_HOUR + 5 * MS_PER_MINUTE + 59_000)).toBe('2 hours 5 minutes')
    expect(formatDuration(MS_PER_HOUR)).toBe('1 hour')
    expect(formatDuration(59_999)).toBe('0 minutes')
    expect(formatDuration(-5)).toBe('0 minutes')
  })
})
