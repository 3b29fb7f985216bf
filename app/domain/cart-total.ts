/** THE cart total: the sum of the items' integer paise. */
export function cartTotalPaise(items: readonly { pricePaise: number }[]): number {
  let total = 0
  for (const { pricePaise } of items) {
    if (!Number.isSafeInteger(pricePaise) || pricePaise <= 0) {
      throw new RangeError(`pricePaise must be a positive whole number of paise, got ${pricePaise}`)
    }
    total += pricePaise
  }
  if (!Number.isSafeInteger(total)) throw new RangeError('cart total is too large')
  return total
}
