import { siteTitle } from '~/domain/business-details'
import { Form, Link } from 'react-router'
import { FormMessage, SelectField, StatusButton } from '~/components/forms'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import { useIsPending } from '~/components/use-is-pending'
import { formatIndiaDateTime } from '~/domain/dates'
import { UNKNOWN_SERVICE_FILTER_MESSAGE } from '~/domain/research-list'
import { requireUser } from '~/server/auth/sign-in.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import { researchListFor } from '~/server/research/delivered.server'
import type { Route } from './+types/research'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Research') }]

/** Personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const { services, serviceId, invalidService, invalidCursor, rows, next, previous } = await researchListFor(
    user.id,
    new URL(request.url).searchParams,
  )
  return {
    services,
    serviceId,
    invalidService,
    invalidCursor,
    next,
    previous,
    items: rows.map(({ id, title, services, publishedAt, readAt }) => ({
      id,
      title,
      services,
      publishedAt: formatIndiaDateTime(publishedAt),
      unread: readAt === null,
    })),
  }
}

export default function Research({ loaderData }: Route.ComponentProps) {
  const { services, serviceId, items, next, previous, invalidService, invalidCursor } = loaderData
  const filtering = useIsPending({ formMethod: 'GET' })
  return (
    <section className="max-w-3xl">
      <h1 className="text-2xl font-semibold">Research</h1>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        The research delivered to you, newest first, and while a subscription runs, its service&apos;s earlier research.
        What was delivered to you stays here for you to read again.
      </p>
      {services.length > 1 ? (
        <Form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Filter research">
          <SelectField
            label="Service"
            selectProps={{
              id: 'research-service',
              name: 'service',
              defaultValue: serviceId ?? '',
              key: serviceId ?? '',
            }}
            placeholder="All services"
            options={services.map((service) => ({ value: service.id, label: service.name }))}
          />
          <StatusButton variant="secondary" status={filtering ? 'pending' : 'idle'}>
            Show
          </StatusButton>
        </Form>
      ) : null}
      {invalidService ? (
        <div className="mt-4">
          <FormMessage tone="error">{UNKNOWN_SERVICE_FILTER_MESSAGE}</FormMessage>
        </div>
      ) : null}
      <InvalidCursorNotice invalid={invalidCursor} />
      {items.length === 0 ? (
        <p className="mt-4">
          {serviceId
            ? 'No research of this service yet.'
            : 'No research has been delivered to you yet. Research reaches you when it is published for a service you subscribe to.'}{' '}
          <Link to="/services" className="underline">
            Browse services
          </Link>
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-gray-200 dark:divide-gray-700">
          {items.map((item) => (
            <li key={item.id} className="py-3">
              {item.unread ? (
                <span className="mr-2 rounded bg-blue-700 px-1.5 py-0.5 text-xs font-semibold text-white">Unread</span>
              ) : null}
              <Link to={`/research/${item.id}`} className={`underline ${item.unread ? 'font-semibold' : ''}`}>
                {item.title}
              </Link>
              <p className="text-sm text-gray-700 dark:text-gray-300">
                {item.publishedAt} · {item.services.join(', ')}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pager label="Pages of your research" next={next} previous={previous} />
    </section>
  )
}
