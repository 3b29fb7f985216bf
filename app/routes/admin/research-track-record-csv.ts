import { requireAdmin } from '~/server/auth/admin-role.server'
import { trackRecordCsv } from './research-track-record.server'
import type { Route } from './+types/research-track-record-csv'

/** A service's whole track record as a CSV file: ?service= its id (docs/research.md, "Track record"). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const file = await trackRecordCsv(new URL(request.url).searchParams.get('service'))
  if (!file)
    return new Response(
      'Which service? Add ?service= with the id of a service (choose one on /admin/research/track-record).\n',
      {
        status: 400,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
      },
    )
  return new Response(file.body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
