import { siteTitle } from '~/domain/business-details'
import { data, Link, redirect } from 'react-router'
import { requirePayingCustomer } from '~/server/auth/sign-in.server'
import { addRenewalToCart } from '~/server/payments/cart.server'
import type { Route } from './+types/renew'

// The one-tap renewal a reminder links to (docs/payments.md, "Renewals"): signed in first (and back
// here), the service goes in the cart and /pay opens, saying the new period. A plain GET, so a link
// in an e-mail or SMS works without JavaScript.

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Renew') }]

export async function loader({ request, params }: Route.LoaderArgs) {
  await requirePayingCustomer(request)
  const renewal = await addRenewalToCart(request, params.serviceId)
  if (!renewal) throw data('Not found', { status: 404 })
  if ('offSale' in renewal) return { offSale: renewal.offSale }
  throw redirect('/pay', { headers: { 'Set-Cookie': renewal.setCookie } })
}

export default function Renew({ loaderData }: Route.ComponentProps) {
  const { name } = loaderData.offSale
  return (
    <section aria-labelledby="renew-heading" className="max-w-xl">
      <h1 id="renew-heading" className="text-2xl font-semibold">
        {name} is no longer on sale
      </h1>
      <p className="mt-4">
        We have stopped offering {name}, so it cannot be renewed. What you have already paid for runs to its end, as
        shown on your subscriptions page.
      </p>
      <p className="mt-4 flex flex-wrap gap-4">
        <Link to="/subscriptions" className="font-medium text-green-700 underline dark:text-green-400">
          My subscriptions
        </Link>
        <Link to="/services" className="font-medium text-green-700 underline dark:text-green-400">
          Services on sale
        </Link>
      </p>
    </section>
  )
}
