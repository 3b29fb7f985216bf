import type { BusinessDetails } from '~/domain/business-details'
import { RISK_LEVEL_LABELS, RISK_LEVELS, type RiskLevel } from '~/domain/risk-levels'
import type { LegalDocument } from './document'
import { REGISTRATION_DISCLAIMER, SEBI_STANDARD_WARNING } from './regulatory'

/**
 * What each risk level a service states means for the subscriber (every service states one: docs/regulatory.md, Risk
 * levels of services).
 */
export const RISK_LEVEL_MEANINGS: Record<RiskLevel, string> = {
  LOW: 'Research on securities whose prices usually move within a narrow range; you can still lose money.',
  MODERATE:
    'Research on securities whose prices can fall noticeably over weeks or months; you may lose part of what you invest.',
  HIGH: 'Equity recommendations whose prices can fall sharply; you may lose a substantial part of what you invest.',
  VERY_HIGH:
    'Trading ideas in derivatives such as index and stock options, or in commodity contracts, where prices move fast and you can lose the entire amount you put into a trade.',
}

export function disclaimer(details: BusinessDetails): LegalDocument {
  const { name, sebiRegistrationNumber } = details
  return {
    title: 'Disclaimer',
    intro: [SEBI_STANDARD_WARNING],
    sections: [
      {
        id: 'research-analyst',
        heading: 'A research analyst, not an investment adviser',
        blocks: [
          `${name} is registered with SEBI as a research analyst (registration number ${sebiRegistrationNumber}) under the SEBI (Research Analysts) Regulations, 2014. We are not registered with SEBI as an investment adviser.`,
          'Our research and recommendations are the same for every subscriber of a service. They are not investment advice and do not take into account your financial situation, objectives, needs or capacity to bear risk. Consider whether a recommendation suits you before acting on it, and consult a SEBI-registered investment adviser if you need personal advice.',
          'We do not manage money, execute trades or hold securities for anyone. Nothing on this website is an offer or a solicitation to buy or sell any security.',
        ],
      },
      {
        id: 'no-guarantee',
        heading: 'No guarantee of returns',
        blocks: [
          REGISTRATION_DISCLAIMER,
          'We do not promise or guarantee any return, profit or accuracy, and any scheme that offers assured returns is illegal. Our research reflects our opinion when it is published and may change without notice. It is based on information we believe to be reliable, but we cannot guarantee that the information is accurate or complete.',
        ],
      },
      {
        id: 'risks',
        heading: 'Risks',
        blocks: [
          'Before acting on any research, understand these risks:',
          {
            list: [
              'Market risk: prices of securities go down as well as up, sometimes sharply, because of events in the economy, the market or the company.',
              'Derivatives risk: futures and options are leveraged; small price moves cause large gains or losses, and options can expire worthless.',
              'Commodity risk: commodity prices depend on global supply, demand, currencies and government policy, and can be volatile.',
              'Liquidity risk: some securities trade thinly, so you may not be able to buy or sell at the price in a recommendation.',
              'Timing risk: prices may move between the time research is published and the time you act on it.',
              'Past performance: past results of our research do not indicate or guarantee future results.',
            ],
          },
          'You alone decide whether to invest, and you alone bear the gains and losses of your investment decisions.',
        ],
      },
      {
        id: 'risk-levels',
        heading: 'Risk levels of our services',
        blocks: [
          'Each research service states its risk level, and how and how often its research is delivered, on the [Services](/services) page and again before you pay. The levels, from lowest to highest:',
          {
            list: RISK_LEVELS.map((level) => `${RISK_LEVEL_LABELS[level]} risk: ${RISK_LEVEL_MEANINGS[level]}`),
          },
          'Choose a service only if its risk level suits your capacity to bear losses.',
        ],
      },
      {
        id: 'illustrations',
        heading: 'Examples',
        blocks: [
          'The securities quoted in our educational material and on this website outside our research reports are for illustration only and are not recommendatory.',
        ],
      },
      {
        id: 'conflicts',
        heading: 'Conflicts of interest',
        blocks: [
          'Our [Disclosure](/disclosure) page and each research report state any conflicts of interest we have.',
        ],
      },
    ],
  }
}
