import { siteTitle } from '~/domain/business-details'
import { maskPan } from '~/domain/pan'
import { data, Form, Link } from 'react-router'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { useIsPending } from '~/components/use-is-pending'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import { CUSTOMER_SEARCH_MIN_LENGTH } from '~/domain/admin'
import { readPageRequest } from '~/domain/keyset'
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '~/domain/control-characters'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { searchCustomers } from '~/server/admin/customers.server'
import type { Route } from './+types/customers'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Customers | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const searchParams = new URL(request.url).searchParams
  const query = searchParams.get('q')?.trim() ?? ''
  const empty = { customers: [], next: null, previous: null, invalidCursor: false }
  if (hasControlCharacter(query)) return data({ query: '', ...empty, message: CONTROL_CHARACTER_MESSAGE }, 400)
  const { page, invalid } = readPageRequest(searchParams, 'uuid')
  const found = await searchCustomers(query, page)
  return {
    query,
    // The list only displays PANs: masked (the customer's own page shows the whole one).
    customers: found.rows.map((row) => ({ ...row, pan: maskPan(row.pan) })),
    next: found.next,
    previous: found.previous,
    invalidCursor: invalid,
    message: null,
  }
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { query, customers, message, next, previous, invalidCursor } = loaderData
  const searching = useIsPending({ formMethod: 'GET' })
  return (
    <>
      <h1 className="text-2xl font-semibold">Customers</h1>
      <Form method="get" role="search" className="mt-4 flex max-w-xl flex-wrap items-end gap-3">
        <Field
          className="min-w-0 flex-1"
          label="Phone, name, e-mail or PAN"
          inputProps={{
            id: 'q',
            name: 'q',
            type: 'search',
            defaultValue: query,
            minLength: CUSTOMER_SEARCH_MIN_LENGTH,
          }}
        />
        <StatusButton status={searching ? 'pending' : 'idle'}>Search</StatusButton>
      </Form>
      {message ? (
        <div className="mt-4">
          <FormMessage tone="error">{message}</FormMessage>
        </div>
      ) : null}
      <InvalidCursorNotice invalid={invalidCursor} />
      {query.length >= CUSTOMER_SEARCH_MIN_LENGTH ? (
        <section aria-labelledby="results-heading" className="mt-6">
          <h2 id="results-heading" className="text-lg font-semibold">
            {customers.length === 0
              ? `No customer matches “${query}”`
              : next || previous
                ? `Customers matching “${query}”, newest first`
                : `${customers.length} found for “${query}”`}
          </h2>
          <ul className="mt-3 divide-y divide-gray-200 dark:divide-gray-700">
            {customers.map((customer) => (
              <li key={customer.id} className="py-3">
                <Link
                  to={`/admin/customers/${customer.id}`}
                  className="font-medium capitalize text-green-800 underline dark:text-green-300"
                >
                  {customer.name ?? 'Name not given'}
                </Link>
                <p className="text-sm break-all">
                  {customer.phone}
                  {customer.email ? ` · ${customer.email}` : ''}
                  {customer.pan ? ` · PAN ${customer.pan}` : ''}
                  {customer.role === 'ADMIN' ? ' · admin' : ''}
                </p>
              </li>
            ))}
          </ul>
          <Pager label="Pages of customers" next={next} previous={previous} />
        </section>
      ) : query ? (
        <p className="mt-4">Type at least {CUSTOMER_SEARCH_MIN_LENGTH} characters.</p>
      ) : null}
    </>
  )
}
