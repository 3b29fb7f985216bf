import { siteTitle } from '~/domain/business-details'
import { InvalidCursorNotice, Pager } from '~/components/pager'
import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import { formatIndiaDateTime } from '~/domain/dates'
import { readPageRequest } from '~/domain/keyset'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { auditEntriesPage } from '~/server/audit.server'
import type { Route } from './+types/audit'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Audit log | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const { page, invalid } = readPageRequest(new URL(request.url).searchParams, 'serial', false)
  const found = await auditEntriesPage(page)
  return {
    invalidCursor: invalid,
    next: found.next,
    previous: found.previous,
    entries: found.rows.map((entry) => ({
      ...entry,
      at: formatIndiaDateTime(entry.createdAt),
      actor: entry.actor.phone ? `${entry.actor.name ?? 'Admin'} (${entry.actor.phone})` : entry.actor.id,
      before: entry.before === null ? null : JSON.stringify(entry.before, null, 2),
      after: entry.after === null ? null : JSON.stringify(entry.after, null, 2),
    })),
  }
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, next, previous, invalidCursor } = loaderData
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="text-2xl font-semibold">
        Audit log
      </h1>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        Admin actions, newest first, {ADMIN_PAGE_SIZE} to a page.
      </p>
      <InvalidCursorNotice invalid={invalidCursor} />
      {entries.length === 0 ? (
        <p className="mt-4">No admin actions yet.</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {entries.map((entry) => (
            <li key={entry.id} className="rounded-lg border border-gray-200 p-3 dark:border-gray-700">
              <p className="font-medium">
                {entry.action} on {entry.subjectType} <span className="break-all">{entry.subjectId}</span>
              </p>
              <p className="text-sm text-gray-700 dark:text-gray-300">
                {entry.at} by {entry.actor}
              </p>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                <div>
                  <h2 className="text-xs font-semibold uppercase">Before</h2>
                  <pre className="text-xs break-all whitespace-pre-wrap">{entry.before ?? '-'}</pre>
                </div>
                <div>
                  <h2 className="text-xs font-semibold uppercase">After</h2>
                  <pre className="text-xs break-all whitespace-pre-wrap">{entry.after ?? '-'}</pre>
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}
      <Pager label="Pages of the audit log" next={next} previous={previous} />
    </section>
  )
}
