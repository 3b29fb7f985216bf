// The channels research reaches customers by (docs/research.md): service descriptions say how
// research is delivered from this list, so they never promise a channel the store does not run.

/** Every channel the store can name; a channel is promised only once it is in LIVE_RESEARCH_CHANNELS. */
export type ResearchChannelName = 'site' | 'email' | 'sms' | 'telegram'

const CHANNEL_WORDS: Record<ResearchChannelName, string> = {
  site: 'on this website',
  email: 'by e-mail',
  sms: 'by SMS',
  telegram: 'on Telegram',
}

/**
 * The channels every store runs, in the order a sentence names them. SMS and Telegram reach only
 * customers who chose them on /account, and only where the deployment configures them, so a service
 * page does not promise them.
 */
export const LIVE_RESEARCH_CHANNELS: readonly ResearchChannelName[] = ['site', 'email']

/** "Delivered on this website and by e-mail." for the given channels (the live ones by default). */
export function researchDeliverySentence(channels: readonly ResearchChannelName[] = LIVE_RESEARCH_CHANNELS): string {
  const words = channels.map((channel) => CHANNEL_WORDS[channel])
  const listed = words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '')
  return `Research is delivered ${listed}.`
}

/** A service's own words on how often (the admin's), followed by the channels that really exist. */
export function serviceDeliveryText(delivery: string, channels?: readonly ResearchChannelName[]): string {
  const own = delivery.trim().replace(/[.;,\s]+$/, '')
  return own ? `${own}. ${researchDeliverySentence(channels)}` : researchDeliverySentence(channels)
}
