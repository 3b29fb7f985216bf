import { serviceDeliveryText } from '~/domain/service-delivery'
import { RISK_LEVEL_LABELS, type RiskLevel } from '~/domain/risk-levels'

export const SERVICE_DESCRIPTION_FALLBACK = 'Service description goes here.'

/**
 * A service's description lines as bullets, or the original store's fallback line (docs/product.md section 2) if none.
 */
export function ServiceDescription({ lines, className = '' }: { lines: readonly string[]; className?: string }) {
  return (
    <ul className={`list-disc space-y-1 pl-6 text-sm text-gray-700 dark:text-gray-300 ${className}`}>
      {lines.length > 0 ? (
        lines.map((line, index) => <li key={index}>{line}</li>)
      ) : (
        <li>{SERVICE_DESCRIPTION_FALLBACK}</li>
      )}
    </ul>
  )
}

/**
 * What every service states beside its description (docs/regulatory.md, Risk levels of services): its risk level and
 * how and how often its research is delivered. /services and /pay show it the same way.
 */
export function ServiceRiskAndDelivery({
  riskLevel,
  delivery,
  className = '',
}: {
  riskLevel: RiskLevel
  delivery: string
  className?: string
}) {
  return (
    <dl className={`space-y-1 text-sm ${className}`}>
      <div>
        <dt className="inline font-medium">Risk level:</dt> <dd className="inline">{RISK_LEVEL_LABELS[riskLevel]}</dd>
      </div>
      <div>
        <dt className="inline font-medium">How and how often research is delivered:</dt>{' '}
        <dd className="inline text-gray-700 dark:text-gray-300">{serviceDeliveryText(delivery)}</dd>
      </div>
    </dl>
  )
}
