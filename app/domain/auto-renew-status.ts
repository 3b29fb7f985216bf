import { formatIndiaDate } from './dates'
import { frequencyText } from './mandates'
import { formatRupees } from './money'

// How a customer's automatic renewal is described on their pages and in the apps (docs/payments.md,
// "Renewals and mandates").

export type AutoRenewState = 'CREATED' | 'ACTIVE' | 'HALTED' | 'CANCELLED'

/** "Renews automatically: Rs. 3,000 every 30 days; next charge on 05-01-2027." and the like. */
export function autoRenewStatusText(mandate: {
  state: AutoRenewState
  amountPaise: number
  periodDays: number
  nextChargeAt: Date | null
}): string {
  const terms = `Rs. ${formatRupees(mandate.amountPaise)} ${frequencyText(mandate.periodDays)}`
  switch (mandate.state) {
    case 'CREATED':
      return `Automatic renewal (${terms}) is waiting for your authorisation at the payment gateway.`
    case 'ACTIVE':
      return mandate.nextChargeAt
        ? `Renews automatically: ${terms}; next charge on ${formatIndiaDate(mandate.nextChargeAt)}, announced by e-mail the day before or earlier.`
        : `Renews automatically: ${terms}.`
    case 'HALTED':
      return 'Automatic renewal is halted: the payment gateway could not take the last charge. Renew by paying, or stop it.'
    case 'CANCELLED':
      return 'Automatic renewal is stopped.'
  }
}

/** The flash after the customer's stop. */
export function autoRenewStoppedMessage(serviceName: string, stopped: boolean): string {
  return stopped
    ? `Automatic renewal of ${serviceName} is stopped: nothing more will be charged. The period already paid runs to its end.`
    : `Automatic renewal of ${serviceName} was already stopped.`
}
