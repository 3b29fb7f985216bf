import { siteTitle } from '~/domain/business-details'
import { Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { FormMessage } from '~/components/forms'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import { ResearchListFilterForm } from '~/components/research-desk'
import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { researchListPage } from './research-desk.server'
import type { Route } from './+types/research'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Research | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  return researchListPage(new URL(request.url))
}

const COLUMNS = ['Title', 'Kind', 'Status', 'Published or written', 'Services', 'Delivered to'] as const
const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'

export default function AdminResearch({ loaderData }: Route.ComponentProps) {
  const { items, filter, services, ignored, invalidCursor, next, previous } = loaderData
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Research</h1>
        <Link to="/admin/research/new" className="underline">
          Write a report
        </Link>
        <Link to="/admin/research/new?kind=call" className="underline">
          Write a call
        </Link>
        <Link to="/admin/research/track-record" className="underline">
          Track record
        </Link>
      </div>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        Drafts, scheduled and published items, newest first by the time published (else written), {ADMIN_PAGE_SIZE} to a
        page.
      </p>
      <ResearchListFilterForm filter={filter} services={services} />
      {ignored.length > 0 ? (
        <div className="mt-4">
          <FormMessage tone="error">{`Not understood and left out of the filter: ${ignored.join(', ')}.`}</FormMessage>
        </div>
      ) : null}
      <InvalidCursorNotice invalid={invalidCursor} />
      {items.length === 0 ? (
        <p className="mt-4">No research matches.</p>
      ) : (
        <ScrollableTable label="Research items">
          <ColumnHeaders columns={COLUMNS} />
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td className={cell}>
                  <Link to={`/admin/research/${item.id}`} className="underline">
                    {item.title}
                  </Link>
                </td>
                <td className={cell}>{item.kind}</td>
                <td className={cell}>{item.scheduledFor ? `${item.status} for ${item.scheduledFor}` : item.status}</td>
                <td className={cell}>{item.when}</td>
                <td className={cell}>{item.services}</td>
                <td className={`${cell} text-right tabular-nums`}>{item.rollSize}</td>
              </tr>
            ))}
          </tbody>
        </ScrollableTable>
      )}
      <Pager label="Pages of research" next={next} previous={previous} />
    </section>
  )
}
