import { z } from 'zod'

/** A cart line as a payment records it: the price and duration at the moment of purchase. */
export const CartItemSchema = z.object({
  serviceId: z.string(),
  name: z.string(),
  pricePaise: z.number().int(),
  durationDays: z.number().int(),
})
export type CartItem = z.infer<typeof CartItemSchema>

const CartSnapshotSchema = z.array(CartItemSchema)

/**
 * THE reader of a payment's cart snapshot (the `Payment.cart` JSON column, written from `CartItem[]`
 * when the payment was made). A row that does not hold one is a broken row: this throws rather
 * than pay, list or export something else.
 */
export function readCartSnapshot(json: unknown): CartItem[] {
  return CartSnapshotSchema.parse(json)
}

/** The cart holds at most this many services (the catalogue is a handful; a bigger cookie is tampering). */
export const MAX_CART_SERVICES = 50

/** Service ids in first-seen order, each once, blanks dropped. */
export function dedupeServiceIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()).filter(Boolean))].slice(0, MAX_CART_SERVICES)
}

/** THE cart total: the sum of the items' integer paise. */
export function cartTotalPaise(items: readonly Pick<CartItem, 'pricePaise'>[]): number {
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

/** Ids added in order, without repeats. */
export function addToCart(ids: readonly string[], serviceId: string): string[] {
  return dedupeServiceIds([...ids, serviceId])
}

export function removeFromCart(ids: readonly string[], serviceId: string): string[] {
  return dedupeServiceIds(ids).filter((id) => id !== serviceId)
}

/** Same services, whatever the order: how a double submit of one cart is recognised. */
export function sameServices(a: readonly string[], b: readonly string[]): boolean {
  const left = dedupeServiceIds(a).sort()
  const right = dedupeServiceIds(b).sort()
  return left.length === right.length && left.every((id, index) => id === right[index])
}
