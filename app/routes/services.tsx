import { siteTitle } from '~/domain/business-details'
import { useEffect, useState, type MouseEvent } from 'react'
import { data, Form, Link, redirect, useFetcher, useNavigate, useNavigation } from 'react-router'
import { CheckboxButton, FormMessage, primaryButtonClass, Spinner } from '~/components/forms'
import { ServiceDescription, ServiceRiskAndDelivery } from '~/components/service-description'
import { cartTotalPaise } from '~/domain/cart-total'
import { formatIndiaDate } from '~/domain/dates'
import { formatPriceLine, formatRupees } from '~/domain/money'
import {
  addServiceOnSaleToCart,
  cartOnSale,
  removeServiceFromCart,
  SERVICE_NOT_ON_SALE_MESSAGE,
} from '~/server/payments/cart.server'
import { readForm } from '~/server/http/form-data.server'
import { advanceLimitFor } from '~/server/payments/purchase-limits.server'
import { getActiveServices } from '~/server/catalog/services.server'
import { getSessionUser } from '~/server/session.server'
import { activeSubscriptions } from '~/server/payments/subscriptions.server'
import type { Route } from './+types/services'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Services') },
  { name: 'description', content: 'Research subscriptions from a SEBI-registered research analyst.' },
]

/** The loader may clean the cart cookie; the action always sets it. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('Set-Cookie') ? actionHeaders : loaderHeaders
}

export async function loader({ request }: Route.LoaderArgs) {
  const services = await getActiveServices()
  const { cartIds, droppedCount, setCookie } = await cartOnSale(request, services)
  const user = await getSessionUser(request)
  const now = new Date()
  // What a signed-in customer holds already, so a repeat purchase is a choice, not a slip.
  const activeUntil: Record<string, string> = Object.fromEntries(
    (user ? await activeSubscriptions(user.id, now) : []).map((held) => [held.serviceId, formatIndiaDate(held.endsAt)]),
  )
  // Services paid up so far ahead that SEBI's one-year advance limit stops a renewal for now.
  const { renewableFrom } = user
    ? await advanceLimitFor(
        user.id,
        services.map((service) => ({ serviceId: service.id, name: service.name, durationDays: service.durationDays })),
        now,
      )
    : { renewableFrom: {} as Record<string, string> }
  return data(
    { services, cartIds, droppedCount, activeUntil, renewableFrom },
    { headers: setCookie ? { 'Set-Cookie': setCookie } : undefined },
  )
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request)
  const serviceId = String(form.get('serviceId') ?? '')
  const intent = form.get('intent')
  const changed =
    intent === 'add'
      ? await addServiceOnSaleToCart(request, serviceId)
      : await removeServiceFromCart(request, serviceId)
  if (!changed) return data({ message: SERVICE_NOT_ON_SALE_MESSAGE }, 400)
  const { setCookie } = changed
  // A plain form post gets the page again (post/redirect/get); a click sent by script only the cookie.
  if (form.get('via') === 'script') return data({ message: undefined }, { headers: { 'Set-Cookie': setCookie } })
  // Back at the card just ticked, not at the top of the page.
  return redirect(`/services#${cardId(serviceId)}`, { headers: { 'Set-Cookie': setCookie } })
}

export default function Services({ loaderData, actionData }: Route.ComponentProps) {
  const { services, droppedCount, activeUntil, renewableFrom } = loaderData
  const cart = useCartClicks(loaderData.cartIds)
  // From the press of "Proceed to Pay" until /pay is shown: the link busy, the cards' boxes inert.
  const goingTo = useNavigation().location?.pathname
  const proceeding = cart.waitingToProceed || goingTo === '/pay'
  const cartIds = cart.ids
  const errorMessage = actionData?.message ?? cart.errorMessage
  return (
    <>
      <h1 className="text-2xl font-semibold">Services</h1>
      <div className="mt-4 space-y-4">
        {droppedCount > 0 ? (
          <FormMessage tone="info">
            {droppedCount === 1 ? 'A service in your cart is' : `${droppedCount} services in your cart are`} no longer
            available and
            {droppedCount === 1 ? ' was' : ' were'} removed.
          </FormMessage>
        ) : null}
        {errorMessage ? <FormMessage tone="error">{errorMessage}</FormMessage> : null}
        {services.length === 0 ? (
          <p>No services are available right now.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {services.map((service) => (
              <li key={service.id}>
                <ServiceCard
                  service={service}
                  inCart={cartIds.has(service.id)}
                  activeUntil={activeUntil[service.id]}
                  renewableFrom={renewableFrom[service.id]}
                  onToggle={cart.toggle}
                  disabled={proceeding}
                />
              </li>
            ))}
          </ul>
        )}
        {cartIds.size > 0 ? (
          <section
            aria-label="Your cart"
            className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-x-4 gap-y-2 border-t border-gray-200 bg-white/95 px-4 py-3 dark:border-gray-700 dark:bg-gray-950/95"
          >
            <p className="text-sm font-medium">{cartSummary(services, cartIds)}</p>
            <span role="status" className={cart.waitingToProceed ? 'text-sm' : 'sr-only'}>
              {cart.waitingToProceed ? 'Saving your cart…' : ''}
            </span>
            <Link
              to="/pay"
              onClick={cart.proceedWhenSaved}
              aria-busy={proceeding || undefined}
              className={`${primaryButtonClass} min-h-11`}
            >
              {proceeding ? <Spinner /> : null}
              Proceed to Pay
            </Link>
          </section>
        ) : null}
      </div>
    </>
  )
}

/** "2 services selected, total Rs. 4,498": the cart as the page shows it. */
function cartSummary(services: readonly ServiceListing[], cartIds: ReadonlySet<string>) {
  const inCart = services.filter((service) => cartIds.has(service.id))
  const count = `${inCart.length} service${inCart.length === 1 ? '' : 's'} selected`
  return `${count}, total Rs. ${formatRupees(cartTotalPaise(inCart))}`
}

/** The card's id: the page comes back scrolled to it after a tick without JavaScript. */
const cardId = (serviceId: string) => `service-${encodeURIComponent(serviceId)}`

type CartClick = { serviceId: string; intent: 'add' | 'remove' }

/**
 * Cart clicks reach the server one at a time, in order, through one fetcher. The cart lives in a
 * cookie that each request reads and rewrites whole, so two clicks in flight together would each
 * write a cart missing the other's change (see docs/decisions/007-cart-clicks-one-at-a-time.md).
 * The page shows the cart as it will be once every click has arrived.
 */
function useCartClicks(serverCartIds: string[]) {
  const fetcher = useFetcher<typeof action>({ key: 'cart' })
  const navigate = useNavigate()
  const [queued, setQueued] = useState<CartClick[]>([])
  const [waitingToProceed, setWaitingToProceed] = useState(false)
  const busy = queued.length > 0 || fetcher.state !== 'idle'

  useEffect(() => {
    if (fetcher.state !== 'idle' || queued.length === 0) return
    const [next, ...rest] = queued
    // The queue drains as the fetcher (outside React) becomes free: state set in answer to it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setQueued(rest)
    void fetcher.submit({ ...next, via: 'script' }, { method: 'post' })
  }, [fetcher, queued])

  useEffect(() => {
    if (waitingToProceed && !busy) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- as above: the last click has arrived
      setWaitingToProceed(false)
      void navigate('/pay')
    }
  }, [waitingToProceed, busy, navigate])

  const ids = new Set(serverCartIds)
  const inFlight = fetcher.formData
  const pending: CartClick[] = inFlight
    ? [
        { serviceId: String(inFlight.get('serviceId')), intent: inFlight.get('intent') === 'add' ? 'add' : 'remove' },
        ...queued,
      ]
    : queued
  for (const click of pending) {
    if (click.intent === 'add') ids.add(click.serviceId)
    else ids.delete(click.serviceId)
  }

  return {
    ids,
    errorMessage: fetcher.state === 'idle' ? fetcher.data?.message : undefined,
    waitingToProceed,
    toggle(serviceId: string) {
      setQueued((clicks) => [...clicks, { serviceId, intent: ids.has(serviceId) ? 'remove' : 'add' }])
    },
    /** "Proceed to Pay" while clicks are still on their way waits for them, so /pay sees the whole cart. */
    proceedWhenSaved(event: MouseEvent) {
      if (!busy) return
      event.preventDefault()
      setWaitingToProceed(true)
    },
  }
}

type ServiceListing = Route.ComponentProps['loaderData']['services'][number]

/**
 * The checkbox is a submit button with the checkbox role: without JavaScript a click posts the
 * form and the page comes back with the cart updated; with it, the click joins the cart's queue.
 * A service that cannot be renewed yet (the one-year advance limit) cannot be ticked; the card
 * says from when it can, and one already in the cart can still be unticked.
 */
function ServiceCard({
  service,
  inCart,
  activeUntil,
  renewableFrom,
  onToggle,
  disabled,
}: {
  service: ServiceListing
  inCart: boolean
  activeUntil: string | undefined
  renewableFrom: string | undefined
  onToggle: (serviceId: string) => void
  disabled: boolean
}) {
  const nameId = `service-${service.id}-name`
  const renewableFromId = `service-${service.id}-renewable-from`
  const notYet = renewableFrom !== undefined && !inCart
  return (
    // The scroll margins keep a card, and its checkbox when focused, clear of the sticky header and cart bar.
    <article
      id={cardId(service.id)}
      className="relative h-full scroll-mt-20 scroll-mb-36 rounded-lg [&_button]:scroll-mt-20 [&_button]:scroll-mb-36 sm:[&_button]:scroll-mb-24 border border-gray-200 p-4 shadow-sm has-[button:hover]:border-green-700 sm:scroll-mb-24 dark:border-gray-700"
      aria-labelledby={nameId}
    >
      <Form method="post" preventScrollReset className="flex items-start gap-3">
        <input type="hidden" name="serviceId" value={service.id} />
        <CheckboxButton
          name="intent"
          value={inCart ? 'remove' : 'add'}
          checked={inCart}
          coversCard
          disabled={notYet || disabled}
          aria-labelledby={nameId}
          aria-describedby={renewableFrom ? renewableFromId : undefined}
          onClick={(event) => {
            event.preventDefault()
            onToggle(service.id)
          }}
        />
        <h2 id={nameId} className="pt-2 text-lg font-semibold">
          {service.name}
        </h2>
      </Form>
      <ServiceDescription lines={service.description} className="mt-3" />
      <ServiceRiskAndDelivery riskLevel={service.riskLevel} delivery={service.delivery} className="mt-3" />
      <p className="mt-3 font-medium">{formatPriceLine(service.pricePaise, service.durationDays)}</p>
      {activeUntil ? (
        <p className="mt-1 text-sm font-medium text-green-800 dark:text-green-300">Active until {activeUntil}</p>
      ) : null}
      {renewableFrom ? (
        <p id={renewableFromId} className="mt-1 text-sm font-medium">
          {renewableFrom}
          <span className="font-normal">: fees can be paid at most one year in advance.</span>
        </p>
      ) : null}
    </article>
  )
}
