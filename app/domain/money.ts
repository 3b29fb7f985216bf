/** Money is integer paise everywhere; only the display turns it into rupees. */
export const PAISE_PER_RUPEE = 100

const wholeRupees = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 })
const rupeesWithPaise = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** 149900 -> "1,499"; 149950 -> "1,499.50" (Indian digit grouping: 1,00,000). */
export function formatRupees(paise: number): string {
  if (!Number.isSafeInteger(paise)) throw new TypeError(`paise must be an integer, got ${paise}`)
  return paise % PAISE_PER_RUPEE === 0
    ? wholeRupees.format(paise / PAISE_PER_RUPEE)
    : rupeesWithPaise.format(paise / PAISE_PER_RUPEE)
}

/** "Rs. 1,499" or, for money going back (a refund, a credit note), "-Rs. 1,499". */
export function formatSignedRupees(paise: number): string {
  return `${paise < 0 ? '-' : ''}Rs. ${formatRupees(Math.abs(paise))}`
}

/** The original store's price line (docs/product.md section 2): "Rs. {price} for {duration} Days". */
export function formatPriceLine(pricePaise: number, durationDays: number): string {
  return `Rs. ${formatRupees(pricePaise)} for ${durationDays} Days`
}

/** A client's rupee amount (the existing clients send the sum of cart prices, possibly with paise) as whole paise. */
export function rupeesToPaise(rupees: number): number {
  if (!Number.isFinite(rupees)) throw new TypeError(`rupees must be a finite number, got ${rupees}`)
  return Math.round(rupees * PAISE_PER_RUPEE)
}
