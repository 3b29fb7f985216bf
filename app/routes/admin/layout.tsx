import { Link, NavLink, Outlet, useRouteLoaderData } from 'react-router'
import { ErrorPage } from '~/components/error-page'
import { lastEndedMonth } from '~/domain/complaint-board-form'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { complaintMonthAwaitingPublication } from '~/server/complaints/board-publishing.server'
import { privatePageHeaders } from '~/server/http/private-pages.server'
import type { Route } from './+types/layout'

// Each child route guards itself too: loaders run in parallel, so this one cannot protect them.
/** Every admin page holds personal data: never cached, document or .data (app/server/http/private-pages.server.ts). */
export function headers({ parentHeaders }: Route.HeadersArgs) {
  return privatePageHeaders(parentHeaders)
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  // From the 1st of each month until the month that ended is published (SEBI: by the 7th).
  return { awaiting: await complaintMonthAwaitingPublication(lastEndedMonth(new Date())) }
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium underline-offset-4 ${isActive ? 'bg-gray-100 underline dark:bg-gray-800' : 'hover:underline'}`

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <AdminNavigation awaiting={loaderData?.awaiting ?? null} />
      <Outlet />
    </div>
  )
}

/**
 * An error inside the console (a customer that does not exist, an unknown /admin path) keeps the
 * console's navigation around the error page. When this layout's own loader refused (not an admin),
 * there is no console to keep: the error page alone, as the root shows it.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const adminConsole = useRouteLoaderData<typeof loader>('routes/admin/layout')
  if (!adminConsole) return <ErrorPage error={error} />
  return (
    <div>
      <AdminNavigation awaiting={adminConsole.awaiting} />
      <ErrorPage error={error} />
    </div>
  )
}

function AdminNavigation({ awaiting }: { awaiting: Awaited<ReturnType<typeof loader>>['awaiting'] }) {
  return (
    <>
      {awaiting ? (
        <aside
          aria-label="Complaint board"
          className="mb-4 rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-50"
        >
          The complaint figures for {awaiting.label} are not published yet (SEBI expects them by the 7th).{' '}
          <Link to="/admin/complaint-board" className="font-medium underline">
            Review and publish {awaiting.label}
          </Link>
        </aside>
      ) : null}
      <nav aria-label="Admin" className="mb-4 flex flex-wrap gap-2 border-b border-gray-200 pb-2 dark:border-gray-700">
        <NavLink to="/admin/payments" className={navLinkClass}>
          Payments
        </NavLink>
        <NavLink to="/admin/customers" className={navLinkClass}>
          Customers
        </NavLink>
        <NavLink to="/admin/refunds" className={navLinkClass}>
          Refunds
        </NavLink>
        <NavLink to="/admin/services" className={navLinkClass}>
          Services
        </NavLink>
        <NavLink to="/admin/research" className={navLinkClass}>
          Research
        </NavLink>
        <NavLink to="/admin/complaints" className={navLinkClass}>
          Complaints
        </NavLink>
        <NavLink to="/admin/complaint-board" className={navLinkClass}>
          Complaint board
        </NavLink>
        <NavLink to="/admin/export" className={navLinkClass}>
          Export
        </NavLink>
        <NavLink to="/admin/audit" className={navLinkClass}>
          Audit log
        </NavLink>
      </nav>
    </>
  )
}
