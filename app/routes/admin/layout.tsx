import { Link, NavLink, Outlet, useLocation, useRouteLoaderData } from 'react-router'
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

const ADMIN_SECTIONS = [
  { to: '/admin/payments', label: 'Payments' },
  { to: '/admin/insights', label: 'Insights' },
  { to: '/admin/customers', label: 'Customers' },
  { to: '/admin/notices', label: 'Notices' },
  { to: '/admin/refunds', label: 'Refunds' },
  { to: '/admin/services', label: 'Services' },
  { to: '/admin/research', label: 'Research' },
  { to: '/admin/complaints', label: 'Complaints' },
  { to: '/admin/complaint-board', label: 'Complaint board' },
  { to: '/admin/export', label: 'Export' },
  { to: '/admin/audit', label: 'Audit log' },
] as const

function AdminLinks({ className }: { className: string }) {
  return (
    <nav aria-label="Admin" className={className}>
      {ADMIN_SECTIONS.map((section) => (
        <NavLink key={section.to} to={section.to} className={navLinkClass}>
          {section.label}
        </NavLink>
      ))}
    </nav>
  )
}

function AdminNavigation({ awaiting }: { awaiting: Awaited<ReturnType<typeof loader>>['awaiting'] }) {
  const { pathname } = useLocation()
  const current = ADMIN_SECTIONS.find((section) => pathname === section.to || pathname.startsWith(`${section.to}/`))
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
      {/* On a phone the ten links would take three or four rows above every page: one row that
          opens to them instead (a disclosure, so it works without JavaScript); it closes again on
          the next page. From 640 px the links show in a row or two. */}
      <details
        key={pathname}
        className="mb-4 border-b border-gray-200 pb-2 sm:hidden dark:border-gray-700 [&[open]>summary]:mb-1"
      >
        <summary className="cursor-pointer rounded-md px-3 py-2.5 font-medium">
          Admin menu{current ? `: ${current.label}` : ''}
        </summary>
        <AdminLinks className="flex flex-col gap-1" />
      </details>
      <AdminLinks className="mb-4 hidden flex-wrap gap-2 border-b border-gray-200 pb-2 sm:flex dark:border-gray-700" />
    </>
  )
}
