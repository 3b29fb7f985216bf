import { z } from 'zod'
import { formatRupees } from './money'

// The total has a module of its own, without Zod, so /services can show it in the browser.
export { cartTotalPaise } from './cart-total'

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

/** A cart line as a page showed it: the service and the price it showed. */
export type ShownCartLine = { serviceId: string; pricePaise: number }

/** The cart a page showed, as one form value ("id:paise,id:paise") sent back with a payment. */
export function shownCartValue(items: readonly ShownCartLine[]): string {
  return items.map((item) => `${item.serviceId}:${item.pricePaise}`).join(',')
}

/** Reads `shownCartValue` back; a malformed pair is skipped (the total check still guards the amount). */
export function readShownCart(value: string): ShownCartLine[] {
  return value.split(',').flatMap((pair) => {
    const [serviceId, paise] = pair.split(':')
    const pricePaise = Number(paise)
    return serviceId && Number.isSafeInteger(pricePaise) ? [{ serviceId, pricePaise }] : []
  })
}

/**
 * What changed between the cart a page showed and the cart now, in words: services added or
 * removed (in another tab) and prices changed meanwhile; undefined when nothing did.
 * `nameOf` names a service that is no longer in the cart.
 */
export function describeCartChange(
  shown: readonly ShownCartLine[],
  current: readonly CartItem[],
  nameOf: (serviceId: string) => string,
): string | undefined {
  const shownById = new Map(shown.map((line) => [line.serviceId, line]))
  const currentIds = new Set(current.map((item) => item.serviceId))
  const changes: string[] = []
  for (const item of current) {
    const before = shownById.get(item.serviceId)
    if (!before) changes.push(`${item.name} was added`)
    else if (before.pricePaise !== item.pricePaise)
      changes.push(
        `the price of ${item.name} is now Rs. ${formatRupees(item.pricePaise)} (was Rs. ${formatRupees(before.pricePaise)})`,
      )
  }
  for (const line of shown) if (!currentIds.has(line.serviceId)) changes.push(`${nameOf(line.serviceId)} was removed`)
  if (changes.length === 0) return undefined
  return `Your cart changed since this page was shown: ${changes.join('; ')}. Please check the total below and try again.`
}

type NamedService = { serviceId: string; name: string }

/**
 * What "Pay again" on a rejected claim says before it is pressed: it replaces the cart with the claim's
 * services, so a cart holding anything else is named. Null when nothing would be lost (an empty cart,
 * or one holding exactly those services).
 */
export function payAgainNotice(cart: readonly NamedService[], claim: readonly NamedService[]): string | null {
  const kept = cart.filter((item) => !claim.some((line) => line.serviceId === item.serviceId))
  if (kept.length === 0) return null
  const names = (items: readonly NamedService[]) => items.map((item) => item.name).join(', ')
  return `Your cart holds ${names(cart)}. Pay again replaces it with ${names(claim)}.`
}
