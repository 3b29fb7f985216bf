import { data, Link, redirect, useFetcher, useFetchers } from 'react-router'
import { FormMessage, primaryButtonClass } from '~/components/forms'
import { formatPriceLine } from '~/domain/money'
import { addServiceToCart, readCart, removeServiceFromCart, serializeCart } from '~/server/cart.server'
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
  const [services, cart] = await Promise.all([getActiveServices(), readCart(request)])
  const available = new Set(services.map((service) => service.id))
  const cartIds = cart.filter((id) => available.has(id))
  const droppedCount = cart.length - cartIds.length
  // Services taken off sale since they were added leave the cart, with a notice.
  const headers = droppedCount ? { 'Set-Cookie': await serializeCart(cartIds) } : undefined
  return data({ services, cartIds, droppedCount }, { headers })
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const serviceId = String(form.get('serviceId') ?? '')
  const intent = form.get('intent')
  if (intent === 'add') {
    const onSale = (await getActiveServices()).some((service) => service.id === serviceId)
    if (!onSale) return data({ message: 'That service is no longer available.' }, 400)
  }
  const { setCookie } = intent === 'add' ? await addServiceToCart(request, serviceId) : await removeServiceFromCart(request, serviceId)
  return redirect('/services', { headers: { 'Set-Cookie': setCookie } })
}

export default function Services({ loaderData, actionData }: Route.ComponentProps) {
  const { services, droppedCount } = loaderData
  const cartIds = useOptimisticCart(loaderData.cartIds)
  return (
    <>
      <h1 className="text-2xl font-semibold">Services</h1>
      <div className="mt-4 space-y-4">
        {droppedCount > 0 ? (
          <FormMessage tone="info">
            {droppedCount === 1 ? 'A service in your cart is' : `${droppedCount} services in your cart are`} no longer available and
            {droppedCount === 1 ? ' was' : ' were'} removed.
          </FormMessage>
        ) : null}
        {actionData?.message ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}
        {services.length === 0 ? (
          <p>No services are available right now.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {services.map((service) => (
              <li key={service.id}>
                <ServiceCard service={service} inCart={cartIds.has(service.id)} />
              </li>
            ))}
          </ul>
        )}
        {cartIds.size > 0 ? (
          <p className="sticky bottom-4 flex justify-end">
            <Link to="/pay" className={`${primaryButtonClass} shadow-lg`}>
              Proceed to Pay
            </Link>
          </p>
        ) : null}
      </div>
    </>
  )
}

/** The cart as the server has it, with clicks still on their way already applied. */
function useOptimisticCart(serverCartIds: string[]): Set<string> {
  const cart = new Set(serverCartIds)
  for (const fetcher of useFetchers()) {
    const serviceId = fetcher.formData?.get('serviceId')
    if (typeof serviceId !== 'string') continue
    if (fetcher.formData?.get('intent') === 'add') cart.add(serviceId)
    else cart.delete(serviceId)
  }
  return cart
}

type ServiceListing = Route.ComponentProps['loaderData']['services'][number]

/**
 * The checkbox is a submit button with the checkbox role: without JavaScript a click posts the
 * form and the page comes back with the cart updated; with it, a fetcher does the same in place.
 */
function ServiceCard({ service, inCart }: { service: ServiceListing; inCart: boolean }) {
  const fetcher = useFetcher({ key: `cart-${service.id}` })
  const nameId = `service-${service.id}-name`
  return (
    <article className="h-full rounded-lg border border-gray-200 p-4 shadow-sm dark:border-gray-700" aria-labelledby={nameId}>
      <fetcher.Form method="post" preventScrollReset className="flex items-start gap-3">
        <input type="hidden" name="serviceId" value={service.id} />
        <button
          type="submit"
          name="intent"
          value={inCart ? 'remove' : 'add'}
          role="checkbox"
          aria-checked={inCart}
          aria-labelledby={nameId}
          className="mt-1 flex h-5 w-5 shrink-0 items-center justify-center rounded border-2 border-green-700 bg-white aria-checked:bg-green-700 dark:bg-gray-900 dark:aria-checked:bg-green-600"
        >
          {inCart ? (
            <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 text-white">
              <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          ) : null}
        </button>
        <h2 id={nameId} className="text-lg font-semibold">
          {service.name}
        </h2>
      </fetcher.Form>
      <ul className="mt-3 list-disc space-y-1 pl-6 text-sm text-gray-700 dark:text-gray-300">
        {service.description.length > 0 ? (
          service.description.map((line, index) => <li key={index}>{line}</li>)
        ) : (
          <li>Service description goes here.</li>
        )}
      </ul>
      <p className="mt-3 font-medium">{formatPriceLine(service.pricePaise, service.durationDays)}</p>
    </article>
  )
}
