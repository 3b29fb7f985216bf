import { describe, expect, it } from 'vitest'
import { LIVE_RESEARCH_CHANNELS, researchDeliverySentence, serviceDeliveryText } from '~/domain/service-delivery'

describe('the delivery sentence of a service', () => {
  it('names exactly the live channels: the website and e-mail today', () => {
    expect(LIVE_RESEARCH_CHANNELS).toEqual(['site', 'email'])
    expect(researchDeliverySentence()).toBe('Research is delivered on this website and by e-mail.')
  })

  it('grows with the list, and follows the admin text about how often', () => {
    expect(researchDeliverySentence(['site', 'email', 'sms', 'telegram'])).toBe(
      'Research is delivered on this website, by e-mail, by SMS and on Telegram.',
    )
    expect(researchDeliverySentence(['site'])).toBe('Research is delivered on this website.')
    expect(serviceDeliveryText('An outlook twice a week.')).toBe(
      'An outlook twice a week. Research is delivered on this website and by e-mail.',
    )
    expect(serviceDeliveryText('  ')).toBe('Research is delivered on this website and by e-mail.')
  })
})
