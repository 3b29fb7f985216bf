import { Link } from 'react-router'
import { formatIndiaDateTime } from '~/domain/dates'
import { requireUser } from '~/server/auth/sign-in.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import { researchDeliveredTo } from '~/server/research/delivered.server'
import type { Route } from './+types/research'

export const meta: Route.MetaFunction = () => [{ title: 'Research | Research Store' }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const items = await researchDeliveredTo(user.id)
  return {
    items: items.map((item) => ({ ...item, deliveredAt: formatIndiaDateTime(item.deliveredAt) })),
  }
}

export default function Research({ loaderData: { items } }: Route.ComponentProps) {
  return (
    <section className="max-w-3xl">
      <h1 className="text-2xl font-semibold">Research</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        The research reports delivered to you, newest first. Each stays here for you to read again.
      </p>
      {items.length === 0 ? (
        <p className="mt-4">
          No research has been delivered to you yet. Reports reach you when they are published for a service you
          subscribe to.{' '}
          <Link to="/services" className="underline">
            Browse services
          </Link>
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-gray-200 dark:divide-gray-700">
          {items.map((item) => (
            <li key={item.id} className="py-3">
              <Link to={`/research/${item.id}`} className="font-medium underline">
                {item.title}
              </Link>
              <p className="text-sm text-gray-700 dark:text-gray-300">
                {item.deliveredAt} · {item.services.join(', ')}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
