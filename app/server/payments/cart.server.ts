import { createCookie } from 'react-router'
import {
  dedupeServiceIds,
  addToCart,
  removeFromCart,
  describeCartChange,
  readShownCart,
  type CartItem,
} from '~/domain/cart'
import { isUuid } from '~/domain/uuid'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { serverSecret } from '../secrets.server'
import { getActiveServices } from '../catalog/services.server'

/** A cart is worth keeping for a while, but not forever: 30 days. */
const CART_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60

/** The cart: a signed cookie of service ids, so it works as a plain form submit without JavaScript. */
export const cartCookie = createCookie('cart', {
  httpOnly: true,
  secure: !env.DEMO_MODE,
  sameSite: 'lax',
  path: '/',
  maxAge: CART_COOKIE_MAX_AGE_SECONDS,
  secrets: [serverSecret('cart-cookie')],
})

/** The service ids in the request's cart cookie; a missing, forged or malformed cookie is an empty cart. */
export async function readCart(request: Request): Promise<string[]> {
  const value: unknown = await cartCookie.parse(request.headers.get('Cookie'))
  if (!Array.isArray(value)) return []
  return dedupeServiceIds(value.filter((id): id is string => typeof id === 'string'))
}

/** A Set-Cookie header value holding `ids`. */
export function serializeCart(ids: readonly string[]): Promise<string> {
  return cartCookie.serialize(dedupeServiceIds(ids))
}

/** Adds a service to the request's cart; returns the Set-Cookie value and the new ids. */
export async function addServiceToCart(
  request: Request,
  serviceId: string,
): Promise<{ ids: string[]; setCookie: string }> {
  const ids = addToCart(await readCart(request), serviceId)
  return { ids, setCookie: await serializeCart(ids) }
}

export async function removeServiceFromCart(
  request: Request,
  serviceId: string,
): Promise<{ ids: string[]; setCookie: string }> {
  const ids = removeFromCart(await readCart(request), serviceId)
  return { ids, setCookie: await serializeCart(ids) }
}

export const SERVICE_NOT_ON_SALE_MESSAGE = 'That service is no longer available.'

/** Adds a service to the request's cart only while it is on sale; null (nothing changed) when it is not. */
export async function addServiceOnSaleToCart(
  request: Request,
  serviceId: string,
): Promise<{ ids: string[]; setCookie: string } | null> {
  const onSale = (await getActiveServices()).some((service) => service.id === serviceId)
  return onSale ? addServiceToCart(request, serviceId) : null
}

/**
 * The request's cart as the catalogue shows it: only services still on sale. Services taken off
 * sale since they were added leave the cart (`setCookie` rewrites it) and are counted for a notice.
 */
export async function cartOnSale(
  request: Request,
  onSale: readonly { id: string }[],
): Promise<{ cartIds: string[]; droppedCount: number; setCookie: string | undefined }> {
  const cart = await readCart(request)
  const available = new Set(onSale.map((service) => service.id))
  const cartIds = cart.filter((id) => available.has(id))
  const droppedCount = cart.length - cartIds.length
  return { cartIds, droppedCount, setCookie: droppedCount ? await serializeCart(cartIds) : undefined }
}

export type PricedCart = {
  /** The cart's active services at their current prices, in cart order. */
  items: CartItem[]
  /** Ids no longer on sale (deactivated) or never known: the page drops them and says so. */
  droppedIds: string[]
  /** Names of the dropped services that exist but were deactivated, for the message. */
  droppedNames: string[]
}

/** Current prices from the database, never from the client. Read fresh (not cached): money depends on it. */
export async function pricedCart(ids: readonly string[]): Promise<PricedCart> {
  const wanted = dedupeServiceIds(ids)
  const wellFormed = wanted.filter((id) => isUuid(id))
  const services = wellFormed.length
    ? await prisma.service.findMany({
        where: { id: { in: wellFormed }, active: true },
        select: { id: true, name: true, pricePaise: true, durationDays: true },
      })
    : []
  const byId = new Map(services.map((service) => [service.id, service]))
  const items: CartItem[] = []
  const droppedIds: string[] = []
  for (const id of wanted) {
    const service = byId.get(id)
    if (service)
      items.push({
        serviceId: service.id,
        name: service.name,
        pricePaise: service.pricePaise,
        durationDays: service.durationDays,
      })
    else droppedIds.push(id)
  }
  const inactive = droppedIds.some((id) => isUuid(id))
    ? await prisma.service.findMany({
        where: { id: { in: droppedIds.filter((id) => isUuid(id)) } },
        select: { id: true, name: true },
      })
    : []
  const nameById = new Map(inactive.map((service) => [service.id, service.name]))
  const droppedNames = droppedIds.flatMap((id) => nameById.get(id) ?? [])
  return { items, droppedIds, droppedNames }
}

/**
 * What changed in the request's cart since a page showed it (`shown`, the page's `shownCartValue`):
 * services added or removed in another tab, prices changed meanwhile. Undefined when nothing did or
 * the form carried no shown cart.
 */
export async function cartChangeSinceShown(request: Request, shown: string): Promise<string | undefined> {
  const shownLines = readShownCart(shown)
  if (shownLines.length === 0) return undefined
  const { items } = await pricedCart(await readCart(request))
  const inCart = new Set(items.map((item) => item.serviceId))
  const goneIds = shownLines.map((line) => line.serviceId).filter((id) => !inCart.has(id) && isUuid(id))
  const gone = goneIds.length
    ? await prisma.service.findMany({ where: { id: { in: goneIds } }, select: { id: true, name: true } })
    : []
  const nameById = new Map(gone.map((service) => [service.id, service.name]))
  return describeCartChange(shownLines, items, (id) => nameById.get(id) ?? 'A service')
}

/**
 * The one-tap renewal (/renew/:serviceId, docs/payments.md "Renewals"): the service added to the
 * request's cart while it is on sale; its name when it was taken off sale; null when no such service.
 */
export async function addRenewalToCart(
  request: Request,
  serviceId: string,
): Promise<{ setCookie: string } | { offSale: { name: string } } | null> {
  if (!isUuid(serviceId)) return null
  const added = await addServiceOnSaleToCart(request, serviceId)
  if (added) return { setCookie: added.setCookie }
  const service = await prisma.service.findUnique({ where: { id: serviceId }, select: { name: true } })
  return service ? { offSale: { name: service.name } } : null
}
