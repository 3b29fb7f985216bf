// Apart from the service form's schema, so that the pages that only show a risk level (the service
// list, /pay, /subscriptions, the disclaimer) do not load Zod with it.

/**
 * The risk levels a service states, lowest to highest (docs/regulatory.md, Risk levels of services). The research notes
 * give no SEBI scale for research services; this is the one we chose, low to very high.
 */
export const RISK_LEVELS = ['LOW', 'MODERATE', 'HIGH', 'VERY_HIGH'] as const
export type RiskLevel = (typeof RISK_LEVELS)[number]

/** How pages, e-mails and the API's `riskLevelLabel` write a risk level. */
export const RISK_LEVEL_LABELS: Record<RiskLevel, string> = {
  LOW: 'Low',
  MODERATE: 'Moderate',
  HIGH: 'High',
  VERY_HIGH: 'Very high',
}
