import { useEffect, useState, type MouseEvent } from 'react'
import { data, Form, Link, redirect, useFetcher, useNavigate } from 'react-router'
import { CheckboxButton, FormMessage, primaryButtonClass } from '~/components/forms'
import { ServiceDescription } from '~/components/service-description'
import { formatPriceLine } from '~/domain/money'
import {
  addServiceOnSaleToCart,
  cartOnSale,
  removeServiceFromCart,
  SERVICE_NOT_ON_SALE_MESSAGE,
} from '~/server/cart.server'
import { readForm } from '~/server/forms.server'
import { getActiveServices } from '~/server/services.server'
import type { Route } from './+types/services'

export const meta: Route.MetaFunction = () => [
  { title: 'Services | Research Store' },
  { name: 'description', content: 'Research subscriptions from a SEBI-registered research analyst.' },
]

/** The loader may clean the cart cookie; the action always sets it. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('Set-Cookie') ? actionHeaders : loaderHeaders
}

export async function loader({ request }: Route.LoaderArgs) {
  const services = await getActiveServices()
  const { cartIds, droppedCount, setCookie } = await cartOnSale(request, services)
  return data({ services, cartIds, droppedCount }, { headers: setCookie ? { 'Set-Cookie': setCookie } : undefined })
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
  return redirect('/services', { headers: { 'Set-Cookie': setCookie } })
}

export default function Services({ loaderData, actionData }: Route.ComponentProps) {
  const { services, droppedCount } = loaderData
  const cart = useCartClicks(loaderData.cartIds)
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
                <ServiceCard service={service} inCart={cartIds.has(service.id)} onToggle={cart.toggle} />
              </li>
            ))}
          </ul>
        )}
        {cartIds.size > 0 ? (
          <p className="sticky bottom-4 flex justify-end">
            <Link to="/pay" onClick={cart.proceedWhenSaved} className={`${primaryButtonClass} shadow-lg`}>
              Proceed to Pay
            </Link>
            <span role="status" className="sr-only">
              {cart.waitingToProceed ? 'Saving your cart…' : ''}
            </span>
          </p>
        ) : null}
      </div>
    </>
  )
}

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
 */
function ServiceCard({
  service,
  inCart,
  onToggle,
}: {
  service: ServiceListing
  inCart: boolean
  onToggle: (serviceId: string) => void
}) {
  const nameId = `service-${service.id}-name`
  return (
    <article
      className="h-full rounded-lg border border-gray-200 p-4 shadow-sm dark:border-gray-700"
      aria-labelledby={nameId}
    >
      <Form method="post" preventScrollReset className="flex items-start gap-3">
        <input type="hidden" name="serviceId" value={service.id} />
        <CheckboxButton
          name="intent"
          value={inCart ? 'remove' : 'add'}
          checked={inCart}
          aria-labelledby={nameId}
          onClick={(event) => {
            event.preventDefault()
            onToggle(service.id)
          }}
        />
        <h2 id={nameId} className="text-lg font-semibold">
          {service.name}
        </h2>
      </Form>
      <ServiceDescription lines={service.description} className="mt-3" />
      <p className="mt-3 font-medium">{formatPriceLine(service.pricePaise, service.durationDays)}</p>
    </article>
  )
}
