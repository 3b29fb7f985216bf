import { Link } from 'react-router'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { formatIndiaDateTime } from '~/domain/dates'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { ADMIN_RESEARCH_LIST_SIZE, researchItemsForAdmin } from '~/server/research/items.server'
import type { Route } from './+types/research'

export const meta: Route.MetaFunction = () => [{ title: 'Research | Admin | Research Store' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const items = await researchItemsForAdmin()
  return {
    listSize: ADMIN_RESEARCH_LIST_SIZE,
    items: items.map((item) => ({
      id: item.id,
      title: item.title,
      status: item.status === 'PUBLISHED' ? 'Published' : 'Draft',
      when: formatIndiaDateTime(item.publishedAt ?? item.createdAt),
      services: item.services
        .map(({ service }) => service.name)
        .sort()
        .join(', '),
      rollSize: item._count.roll,
    })),
  }
}

const COLUMNS = ['Title', 'Status', 'Written or published', 'Services', 'Delivered to'] as const
const cell = 'border border-gray-300 px-3 py-2 align-top dark:border-gray-700'

export default function AdminResearch({ loaderData: { items, listSize } }: Route.ComponentProps) {
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
      </div>
      <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
        The newest {listSize} reports, drafts and published.
      </p>
      {items.length === 0 ? (
        <p className="mt-4">No research yet.</p>
      ) : (
        <ScrollableTable label="Research reports">
          <ColumnHeaders columns={COLUMNS} />
          <tbody>
            {items.map((item) => (
              <tr key={item.id}>
                <td className={cell}>
                  <Link to={`/admin/research/${item.id}`} className="underline">
                    {item.title}
                  </Link>
                </td>
                <td className={cell}>{item.status}</td>
                <td className={cell}>{item.when}</td>
                <td className={cell}>{item.services}</td>
                <td className={`${cell} text-right tabular-nums`}>{item.rollSize}</td>
              </tr>
            ))}
          </tbody>
        </ScrollableTable>
      )}
    </section>
  )
}
