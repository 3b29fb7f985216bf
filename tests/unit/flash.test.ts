import { describe, expect, it } from 'vitest'
import { boundedFlash, FLASH_DETAILS_MAX, FLASH_TEXT_MAX_LENGTH, FlashSchema } from '~/domain/flash'

describe('boundedFlash', () => {
  it('cuts long texts and extra lines so the flash still parses', () => {
    const flash = boundedFlash({
      tone: 'success',
      message: 'x'.repeat(FLASH_TEXT_MAX_LENGTH + 50),
      details: Array.from({ length: FLASH_DETAILS_MAX + 3 }, (_, index) => `line ${index}`),
    })
    expect(flash.message).toHaveLength(FLASH_TEXT_MAX_LENGTH)
    expect(flash.message.endsWith('…')).toBe(true)
    expect(flash.details).toHaveLength(FLASH_DETAILS_MAX)
    expect(FlashSchema.safeParse(flash).success).toBe(true)
  })

  it('keeps a short flash as it is', () => {
    expect(boundedFlash({ tone: 'info', message: 'Saved' })).toEqual({ tone: 'info', message: 'Saved' })
  })
})
